/**
 * A confirmation dialog (`<dialog>`, modal, focus moves to it; Escape cancels):
 * `const [dialog, confirm] = useConfirm(); ... if (await confirm('Delete x?', 'Delete')) ...`.
 */
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';

interface Pending {
  message: string;
  action: string;
  resolve: (ok: boolean) => void;
}

export function useConfirm(): [ReactNode, (message: string, action: string) => Promise<boolean>] {
  const [pending, setPending] = useState<Pending>();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (pending && dialog && !dialog.open) dialog.showModal();
  }, [pending]);
  const confirm = useCallback(
    (message: string, action: string) =>
      new Promise<boolean>((resolve) => {
        setPending({ message, action, resolve });
      }),
    [],
  );
  const finish = (ok: boolean) => {
    ref.current?.close();
    pending?.resolve(ok);
    setPending(undefined);
  };
  const dialog = pending ? (
    <dialog ref={ref} aria-labelledby="confirm-message" onCancel={() => finish(false)}>
      <p id="confirm-message">{pending.message}</p>
      <div className="toolbar">
        <button type="button" className="primary" onClick={() => finish(true)}>
          {pending.action}
        </button>
        <button type="button" onClick={() => finish(false)}>
          Cancel
        </button>
      </div>
    </dialog>
  ) : null;
  return [dialog, confirm];
}
