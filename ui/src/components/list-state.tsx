/**
 * What a list page shows besides its rows, in one order everywhere: the error, "Loading…" while
 * the first load is under way, that there is nothing yet, or that the filter matches nothing.
 * `rows` is what was loaded: undefined before the first load and after a failed one, so a failed
 * load shows its error alone, never rows remembered from an earlier visit.
 */
import type { ReactNode } from 'react';
import { ErrorMessage } from './error-message.tsx';

export function ListState(props: {
  error: unknown;
  /** Whether a load is under way; leave it out where the page's toolbar says so instead. */
  loading?: boolean;
  rows: readonly unknown[] | undefined;
  /** What to say when nothing is loaded yet. */
  empty: ReactNode;
  /** With a filter: how many rows it leaves, and what to say when that is none. */
  shown?: number;
  noMatch?: ReactNode;
}) {
  const { error, loading, rows } = props;
  return (
    <>
      <ErrorMessage error={error} />
      {loading && !rows && !error && <p aria-busy="true">Loading…</p>}
      {rows && rows.length === 0 && <p className="muted">{props.empty}</p>}
      {props.noMatch && rows && rows.length > 0 && props.shown === 0 && (
        <p className="muted">{props.noMatch}</p>
      )}
    </>
  );
}
