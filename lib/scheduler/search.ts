/**
 * The two scheduler searches, over what the store lists (no search index: schedules are few, and
 * execution search reads the newest EXECUTION_SEARCH_WINDOW records).
 *
 * Schedules: workflowName, scheduleName, paused, freeText (`*` = all; otherwise a case-insensitive
 * substring of the name, workflow name or description), start, size, sort (`field[:ASC|DESC]`,
 * comma-separated). Executions: `query` of clauses joined by AND, each `field = value`,
 * `field IN (a, b)`, or for the times `field > n` / `field < n` (quotes optional); fields
 * executionId, scheduleName, workflowName, workflowId, state, scheduledTime, executionTime, and the
 * names the official UI's execution filters send for three of them (EXECUTION_ALIASES):
 * `workflowType` (the workflow name), `status` (the state) and `startTime` (the scheduled time, which
 * Conductor also sorts by when asked for a field it does not know). Sort fields take the same names.
 */
import { ValidationError } from '../model/errors.ts';
import type { ScheduleExecution, WorkflowSchedule } from './model.ts';
import { workflowNameOf } from './model.ts';

/** Execution records an executions search reads, newest first. */
export const EXECUTION_SEARCH_WINDOW = 10_000;

export interface SearchResult<T> {
  totalHits: number;
  results: T[];
}

export interface Page {
  start: number;
  size: number;
  sort?: string[];
  freeText?: string;
}

export interface ScheduleFilter extends Page {
  workflowName?: string;
  scheduleName?: string;
  paused?: boolean;
}

export function searchSchedules(
  all: WorkflowSchedule[],
  filter: ScheduleFilter,
): SearchResult<WorkflowSchedule> {
  const text = freeTextOf(filter.freeText);
  const hits = all.filter(
    (s) =>
      (filter.workflowName === undefined || workflowNameOf(s) === filter.workflowName) &&
      (filter.scheduleName === undefined || s.name === filter.scheduleName) &&
      (filter.paused === undefined || s.paused === filter.paused) &&
      (text === undefined ||
        [s.name, workflowNameOf(s), s.description ?? ''].some((v) => v.toLowerCase().includes(text))),
  );
  return page(hits, filter);
}

const EXECUTION_FIELDS = [
  'executionId',
  'scheduleName',
  'workflowName',
  'workflowId',
  'state',
  'scheduledTime',
  'executionTime',
] as const;
type ExecutionField = (typeof EXECUTION_FIELDS)[number];
/**
 * What the official UI's scheduler executions page sends (`workflowType IN (...)`, `status IN
 * (...)`, `startTime>...`, and `sort=startTime:DESC`), as the record fields they mean.
 */
export const EXECUTION_ALIASES: Readonly<Record<string, ExecutionField>> = {
  workflowType: 'workflowName',
  status: 'state',
  startTime: 'scheduledTime',
};
const fieldOf = (name: string): string => EXECUTION_ALIASES[name] ?? name;
const TIME_FIELDS = new Set<string>(['scheduledTime', 'executionTime']);

type Clause = (e: ScheduleExecution) => boolean;

export function searchExecutions(
  records: ScheduleExecution[],
  query: string | undefined,
  filter: Page,
): SearchResult<ScheduleExecution> {
  const clauses = parseQuery(query);
  const text = freeTextOf(filter.freeText);
  const hits = records.filter(
    (e) =>
      clauses.every((c) => c(e)) &&
      (text === undefined ||
        [e.scheduleName, e.workflowName, e.workflowId ?? '', e.executionId, e.reason ?? ''].some((v) =>
          v.toLowerCase().includes(text),
        )),
  );
  return page(hits, { ...filter, sort: filter.sort?.map((s) => s.trim().replace(/^[^:]*/, fieldOf)) });
}

function parseQuery(query: string | undefined): Clause[] {
  if (query === undefined || query.trim() === '' || query.trim() === '*') return [];
  return query.split(/\s+AND\s+/i).map((part) => {
    const m = /^\s*(\w+)\s*(=|>|<|\s+IN\s+)\s*(.+?)\s*$/i.exec(part);
    if (!m) throw invalid(part, 'expected field = value, field IN (a, b), field > n or field < n');
    const [, named = '', rawOp = '', rawValue = ''] = m;
    const field = fieldOf(named);
    if (!(EXECUTION_FIELDS as readonly string[]).includes(field)) {
      const known = [...EXECUTION_FIELDS, ...Object.keys(EXECUTION_ALIASES)].join(', ');
      throw invalid(part, `unknown field '${named}'; fields: ${known}`);
    }
    const key = field as ExecutionField;
    const op = rawOp.trim().toUpperCase();
    if (op === 'IN') {
      const list = /^\((.*)\)$/.exec(rawValue);
      if (!list) throw invalid(part, 'IN takes a parenthesised list');
      const values = new Set((list[1] ?? '').split(',').map(unquote));
      return (e) => values.has(String(e[key] ?? ''));
    }
    const value = unquote(rawValue);
    if (op === '=') return (e) => String(e[key] ?? '') === value;
    const n = Number(value);
    if (!TIME_FIELDS.has(key) || !Number.isFinite(n))
      throw invalid(part, `${op} compares a time field with a number`);
    return op === '>' ? (e) => Number(e[key]) > n : (e) => Number(e[key]) < n;
  });
}

const unquote = (v: string): string => v.trim().replace(/^(['"])(.*)\1$/, '$2');

function invalid(clause: string, why: string): ValidationError {
  const message = `Invalid query clause '${clause.slice(0, 100)}': ${why}`;
  return new ValidationError(message, [{ path: 'query', message }]);
}

function freeTextOf(freeText: string | undefined): string | undefined {
  const text = freeText?.trim();
  return text === undefined || text === '' || text === '*' ? undefined : text.toLowerCase();
}

function page<T extends object>(hits: T[], filter: Page): SearchResult<T> {
  const sorted = sortBy(hits, filter.sort ?? []);
  return { totalHits: sorted.length, results: sorted.slice(filter.start, filter.start + filter.size) };
}

function sortBy<T extends object>(items: T[], sort: string[]): T[] {
  const keys = sort
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const [field = '', dir = 'ASC'] = s.split(':');
      return { field, desc: dir.toUpperCase() === 'DESC' };
    });
  if (keys.length === 0) return items;
  return [...items].sort((a, b) => {
    for (const { field, desc } of keys) {
      const x = (a as Record<string, unknown>)[field];
      const y = (b as Record<string, unknown>)[field];
      const c = compare(x, y);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
}

function compare(x: unknown, y: unknown): number {
  if (x === y) return 0;
  if (x === undefined || x === null) return -1;
  if (y === undefined || y === null) return 1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  return String(x) < String(y) ? -1 : 1;
}
