/**
 * The executions list's filters and the search request they make: a where clause in the service's
 * query language (`workflowType IN ("a", "b") AND status IN (FAILED, TIMED_OUT) AND startTime >=
 * 1700000000000`), values quoted with backslash escapes, times as epoch milliseconds, and the
 * search API's `sort` (`startTime:DESC` unless a column header chose another). A workflow type
 * typed in part stands for every registered type containing it. The filters live in the page URL
 * (`?workflowType=a&status=FAILED,TIMED_OUT&sort=endTime:ASC`), so a reload or a shared link shows
 * the same list.
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

/** The columns a header click sorts by, as the search API names them. */
export const SORTABLE_FIELDS = ['workflowType', 'status', 'startTime', 'endTime', 'executionTime'] as const;
export type SortField = (typeof SORTABLE_FIELDS)[number];

export interface Sort {
  field: SortField;
  descending: boolean;
}

/** Newest first: the order the list has until a header is clicked. */
export const DEFAULT_SORT: Sort = { field: 'startTime', descending: true };

export interface ExecutionFilters {
  workflowType: string;
  /** The statuses a run may have; none chosen: any. */
  statuses: string[];
  /** `datetime-local` values (local time, no zone), or '' for no bound. */
  from: string;
  to: string;
  correlationId: string;
  freeText: string;
  sort: Sort;
  /** Offset of the first row shown. */
  start: number;
}

export const NO_FILTERS: ExecutionFilters = {
  workflowType: '',
  statuses: [],
  from: '',
  to: '',
  correlationId: '',
  freeText: '',
  sort: DEFAULT_SORT,
  start: 0,
};

const quote = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** A datetime-local value as epoch ms, or undefined when empty or unreadable. */
export function epochOf(local: string): number | undefined {
  if (local.trim() === '') return undefined;
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The registered workflow types a typed type stands for: itself when it is one (or when none
 * contains it: then the exact name is searched), else every one containing it, ignoring case.
 */
export function matchingTypes(typed: string, registered: readonly string[]): string[] {
  const type = typed.trim();
  if (type === '' || registered.includes(type)) return type === '' ? [] : [type];
  const wanted = type.toLowerCase();
  const found = [...new Set(registered)].filter((name) => name.toLowerCase().includes(wanted)).sort();
  return found.length > 0 ? found : [type];
}

/** `field:ASC` or `field:DESC`, as the search API's `sort` takes it. */
export const sortText = (sort: Sort) => `${sort.field}:${sort.descending ? 'DESC' : 'ASC'}`;

/** The order after clicking a header: its field ascending, or the other way when it already sorts. */
export function nextSort(current: Sort, field: SortField): Sort {
  return current.field === field ? { field, descending: !current.descending } : { field, descending: false };
}

/** The search route's query parameters for these filters, given the registered workflow types. */
export function searchParamsOf(
  filters: ExecutionFilters,
  registered: readonly string[] = [],
): {
  start: number;
  size: number;
  sort: string;
  freeText: string;
  query?: string;
} {
  const clauses: string[] = [];
  const types = matchingTypes(filters.workflowType, registered);
  if (types.length === 1) clauses.push(`workflowType = ${quote(types[0] as string)}`);
  else if (types.length > 1) clauses.push(`workflowType IN (${types.map(quote).join(', ')})`);
  if (filters.statuses.length > 0) clauses.push(`status IN (${filters.statuses.join(', ')})`);
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
    sort: sortText(filters.sort),
    freeText: freeText === '' ? '*' : freeText,
    ...(clauses.length > 0 ? { query: clauses.join(' AND ') } : {}),
  };
}

function sortFromUrl(text: string | null): Sort {
  const [field = '', direction = ''] = (text ?? '').split(':');
  if (!(SORTABLE_FIELDS as readonly string[]).includes(field) || !/^(ASC|DESC)$/.test(direction))
    return DEFAULT_SORT;
  return { field: field as SortField, descending: direction === 'DESC' };
}

/** Filters read from the page URL's search string (unknown statuses and sorts left out). */
export function filtersFromUrl(search: URLSearchParams): ExecutionFilters {
  const start = Number(search.get('start') ?? 0);
  const statuses = (search.get('status') ?? '').split(',');
  return {
    workflowType: search.get('workflowType') ?? '',
    statuses: WORKFLOW_STATUSES.filter((s) => statuses.includes(s)),
    from: search.get('from') ?? '',
    to: search.get('to') ?? '',
    correlationId: search.get('correlationId') ?? '',
    freeText: search.get('freeText') ?? '',
    sort: sortFromUrl(search.get('sort')),
    start: Number.isInteger(start) && start > 0 ? start : 0,
  };
}

/** The page URL's search string for these filters (empty values and the default order left out). */
export function urlOfFilters(filters: ExecutionFilters): URLSearchParams {
  const search = new URLSearchParams();
  const { statuses, sort, start, ...texts } = filters;
  for (const [key, value] of Object.entries(texts)) if (value !== '') search.set(key, value);
  if (statuses.length > 0) search.set('status', statuses.join(','));
  if (sortText(sort) !== sortText(DEFAULT_SORT)) search.set('sort', sortText(sort));
  if (start !== 0) search.set('start', String(start));
  return search;
}
