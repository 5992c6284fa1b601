/**
 * What the record editors built on a plain form (event handlers, schedules) share: the form's
 * state with its "Saved." flag (`useEditorForm`: any edit clears it; `text(key)` binds an input to
 * a text field; `submit` lists what the form's check refuses, or stores the checked record and says
 * "Saved.", or shows why the service refused it), and the form's footer (`EditorFooter`: what the form refuses, the service's error,
 * "Saved.", Save and, for a stored record, Delete, then the confirmation dialog).
 */
import { type FormEvent, type ReactNode, useState } from 'react';
import { ErrorMessage } from './error-message.tsx';

/** The keys of `F` whose values are text. */
type TextKey<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F];

export function useEditorForm<F extends object>(initial: F) {
  const [form, setForm] = useState<F>(initial);
  const [problems, setProblems] = useState<string[]>([]);
  const [failure, setFailure] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof F>(key: K, value: F[K]) => {
    setSaved(false);
    setForm({ ...form, [key]: value });
  };
  const text = (key: TextKey<F>) => ({
    value: form[key] as string,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as F[TextKey<F>]),
  });
  const submit = async <Checked extends { ok: true }>(
    event: FormEvent,
    checked: Checked | { ok: false; problems: string[] },
    store: (record: Checked) => Promise<void>,
  ) => {
    event.preventDefault();
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems([]);
    setFailure(undefined);
    try {
      await store(checked);
      setSaved(true);
    } catch (error) {
      setFailure(error);
    }
  };
  return { form, setForm, set, text, submit, problems, failure, setFailure, saved };
}

export function EditorFooter(props: {
  problems: string[];
  failure: unknown;
  saved: boolean;
  /** Deletes the record; absent for a new one, which has no Delete. */
  onDelete?: () => void;
  confirmDialog: ReactNode;
}) {
  return (
    <>
      {props.problems.length > 0 && (
        <ul className="error" role="alert">
          {props.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <ErrorMessage error={props.failure} />
      {props.saved && (
        <p className="success" role="status">
          Saved.
        </p>
      )}
      <div className="toolbar">
        <button type="submit" className="primary">
          Save
        </button>
        {props.onDelete && (
          <button type="button" className="danger" onClick={props.onDelete}>
            Delete
          </button>
        )}
      </div>
      {props.confirmDialog}
    </>
  );
}
