/** An API (or any) error shown in words, announced to screen readers. */
import { describeError } from '../api/client.ts';

export function ErrorMessage({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <div className="error" role="alert">
      {describeError(error)}
    </div>
  );
}
