/**
 * The search planner: from a query AST, free text and sort it picks the access path.
 * - byName: the query constrains workflowType (`=` or `IN`, in a top-level AND): one index Query
 *   per name, the startTime bounds of the same AND as the key condition (createTime = startTime).
 * - byStartDay: no workflowType, but a startTime lower bound within MAX_DAY_SPAN days of the upper
 *   bound (or of now): one index Query per day (and shard) of the window; the UI's default query
 *   (`startTime>…`) takes this path.
 * - scan: otherwise; the startTime bounds still narrow the rows (as a filter).
 * The plan is `covered` when the query, the free text and the sort only need what the index row
 * holds (workflowId, workflowType, version, status, correlationId, startTime): then matching,
 * counting (exact totalHits) and paging happen on index rows and only the page's records are read.
 * Otherwise the records of the candidates are read and filtered in full.
 */
import type { RunIndexRead } from '../store/ports.ts';
import { numberOf } from './evaluate.ts';
import type { FreeText, QueryExpr } from './query-ast.ts';

export interface SortKey {
  field: string;
  descending: boolean;
}

/** The longest window read by day: past it, a scan is fewer requests than days x shards queries. */
export const MAX_DAY_SPAN = 92;
const DAY_MS = 86_400_000;

export interface WorkflowPlan {
  index: 'byName' | 'byStartDay' | 'scan';
  read: RunIndexRead;
  covered: boolean;
  /** The part of the query the index rows can answer (ANDed conditions on row fields). */
  rowFilter?: QueryExpr;
}

/** Fields an index row of a run holds (search names). */
export const ROW_FIELDS = new Set([
  'workflowId',
  'workflowType',
  'version',
  'status',
  'correlationId',
  'startTime',
]);

const conjuncts = (expr: QueryExpr | undefined): QueryExpr[] =>
  !expr ? [] : expr.kind === 'and' ? expr.items.flatMap(conjuncts) : [expr];

/** Every field an expression mentions. */
export function fieldsOf(expr: QueryExpr | undefined): string[] {
  if (!expr) return [];
  if (expr.kind === 'and' || expr.kind === 'or') return expr.items.flatMap(fieldsOf);
  return [expr.field];
}

/** Names the query pins workflowType to (intersection of its ANDed conditions), else undefined. */
export function typesOf(expr: QueryExpr | undefined, field = 'workflowType'): string[] | undefined {
  let names: string[] | undefined;
  for (const item of conjuncts(expr)) {
    let these: string[] | undefined;
    if (item.kind === 'compare' && item.field === field && item.op === '=') these = [item.value.text];
    if (item.kind === 'in' && item.field === field && !item.negated) these = item.values.map((v) => v.text);
    if (these) names = names ? names.filter((n) => these.includes(n)) : [...new Set(these)];
  }
  return names;
}

/** Inclusive bounds on a time field from the ANDed conditions. */
export function timeBounds(expr: QueryExpr | undefined, field = 'startTime'): { from?: number; to?: number } {
  let from: number | undefined;
  let to: number | undefined;
  for (const item of conjuncts(expr)) {
    if (item.kind !== 'compare' || item.field !== field) continue;
    const value = numberOf(field, 'time', item.value);
    const lower = item.op === '>' ? value + 1 : item.op === '>=' || item.op === '=' ? value : undefined;
    const upper = item.op === '<' ? value - 1 : item.op === '<=' || item.op === '=' ? value : undefined;
    if (lower !== undefined) from = from === undefined ? lower : Math.max(from, lower);
    if (upper !== undefined) to = to === undefined ? upper : Math.min(to, upper);
  }
  return { from, to };
}

export function planWorkflowSearch(
  expr: QueryExpr | undefined,
  free: FreeText,
  sort: readonly SortKey[],
  now: number = Date.now(),
): WorkflowPlan {
  const names = typesOf(expr);
  const { from, to } = timeBounds(expr);
  // Without an upper bound the days run to tomorrow (no run starts later than now; a day more for
  // a host whose clock runs a little ahead), on every adapter alike.
  const through = to ?? now + DAY_MS;
  const byStartDay =
    !names && from !== undefined && Math.floor(through / DAY_MS) - Math.floor(from / DAY_MS) < MAX_DAY_SPAN;
  const read: RunIndexRead = byStartDay
    ? { startFrom: from, startTo: through, byStartDay }
    : { names, startFrom: from, startTo: to };
  const rowItems = conjuncts(expr).filter((item) => fieldsOf(item).every((f) => ROW_FIELDS.has(f)));
  const rowFilter =
    rowItems.length === 0
      ? undefined
      : rowItems.length === 1
        ? rowItems[0]
        : { kind: 'and' as const, items: rowItems };
  const covered =
    free.terms.length === 0 &&
    fieldsOf(expr).every((f) => ROW_FIELDS.has(f)) &&
    sort.every((key) => ROW_FIELDS.has(key.field));
  return { index: names ? 'byName' : byStartDay ? 'byStartDay' : 'scan', read, covered, rowFilter };
}
