/** Outcomes shown in words and announced to screen readers: an API (or any) error, a success. */
import { describeError } from '../api/client.ts';

export function ErrorMessage({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <div className="error" role="alert">
      {describeError(error)}
    </div>
  );
}

export function Success({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="success" role="status">
      {message}
    </p>
  );
}
