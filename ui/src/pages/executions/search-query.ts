/**
 * The executions list's filters and the search request they make: a where clause in the service's
 * query language (`workflowType = "a" AND status IN (FAILED) AND startTime >= 1700000000000`),
 * values quoted with backslash escapes, times as epoch milliseconds, newest first. The filters live
 * in the page URL (`?workflowType=a&status=FAILED`), so a reload or a shared link shows the same list.
 */

export const WORKFLOW_STATUSES = [
  'RUNNING',
  'COMPLETED',
  'FAILED',
  'TIMED_OUT',
  'TERMINATED',
  'PAUSED',
] as const;

export const PAGE_SIZE = 25;

export interface ExecutionFilters {
  workflowType: string;
  status: string;
  /** `datetime-local` values (local time, no zone), or '' for no bound. */
  from: string;
  to: string;
  correlationId: string;
  freeText: string;
  /** Offset of the first row shown. */
  start: number;
}

export const NO_FILTERS: ExecutionFilters = {
  workflowType: '',
  status: '',
  from: '',
  to: '',
  correlationId: '',
  freeText: '',
  start: 0,
};

const quote = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** A datetime-local value as epoch ms, or undefined when empty or unreadable. */
export function epochOf(local: string): number | undefined {
  if (local.trim() === '') return undefined;
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/** The search route's query parameters for these filters. */
export function searchParamsOf(filters: ExecutionFilters): {
  start: number;
  size: number;
  sort: string;
  freeText: string;
  query?: string;
} {
  const clauses: string[] = [];
  const type = filters.workflowType.trim();
  if (type) clauses.push(`workflowType = ${quote(type)}`);
  if (filters.status) clauses.push(`status IN (${filters.status})`);
  const from = epochOf(filters.from);
  if (from !== undefined) clauses.push(`startTime >= ${from}`);
  const to = epochOf(filters.to);
  if (to !== undefined) clauses.push(`startTime <= ${to}`);
  const correlationId = filters.correlationId.trim();
  if (correlationId) clauses.push(`correlationId = ${quote(correlationId)}`);
  const freeText = filters.freeText.trim();
  return {
    start: filters.start,
    size: PAGE_SIZE,
    sort: 'startTime:DESC',
    freeText: freeText === '' ? '*' : freeText,
    ...(clauses.length > 0 ? { query: clauses.join(' AND ') } : {}),
  };
}

/** Filters read from the page URL's search string. */
export function filtersFromUrl(search: URLSearchParams): ExecutionFilters {
  const start = Number(search.get('start') ?? 0);
  return {
    workflowType: search.get('workflowType') ?? '',
    status: (WORKFLOW_STATUSES as readonly string[]).includes(search.get('status') ?? '')
      ? (search.get('status') as string)
      : '',
    from: search.get('from') ?? '',
    to: search.get('to') ?? '',
    correlationId: search.get('correlationId') ?? '',
    freeText: search.get('freeText') ?? '',
    start: Number.isInteger(start) && start > 0 ? start : 0,
  };
}

/** The page URL's search string for these filters (empty values left out). */
export function urlOfFilters(filters: ExecutionFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (key === 'start' ? value !== 0 : value !== '') search.set(key, String(value));
  }
  return search;
}
