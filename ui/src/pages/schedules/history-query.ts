/**
 * The scheduler execution search's `query` for the history page's filters: `scheduleName =
 * "nightly" AND state IN (FAILED, POLLED)`, in the scheduler's own clause syntax (field = value,
 * field IN (a, b), joined by AND). Pure, so it is unit-tested.
 */

export const EXECUTION_STATES = ['POLLED', 'EXECUTED', 'FAILED'] as const;

export const HISTORY_PAGE = 25;

/** The query for a schedule name ('' for any) and states (none for any); undefined when unfiltered. */
export function executionQuery(schedule: string, states: readonly string[]): string | undefined {
  const clauses: string[] = [];
  if (schedule.trim() !== '') clauses.push(`scheduleName = "${schedule.trim()}"`);
  if (states.length > 0) clauses.push(`state IN (${states.join(', ')})`);
  return clauses.length > 0 ? clauses.join(' AND ') : undefined;
}
