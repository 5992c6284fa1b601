/**
 * Workflow and task search over the execution store (docs/api.md "Search", docs/conductor-compat.md §6):
 * parses the query and free text, plans the index read (planner.ts), filters, sorts (default startTime DESC),
 * counts and pages. totalHits is exact: covered queries count index rows; others count the records
 * they read (their cost grows with the candidates; see README "Search").
 * With a search index (OpenSearch, `service.search.backend=opensearch`) the same parsed query is
 * answered there instead: the index returns the page's ids and the exact count, and the records are
 * read from the execution store by id (a run removed or expired since is dropped and the count
 * lowered, as on the store's own path).
 */
import type { ServiceContext } from '../capability-contract.ts';
import { type Clock, systemClock } from '../model/clock.ts';
import { ValidationError } from '../model/errors.ts';
import type { TaskRecord, WorkflowRecord } from '../model/execution.ts';
import type { RunIndexRow, RunQueries, TaskRows } from '../store/ports.ts';
import { rowsOfRuns } from '../store/run-rows.ts';
import {
  checkQuery,
  type FieldType,
  matchesFreeText,
  matchesQuery,
  type SearchDoc,
  TASK_FIELDS,
  WORKFLOW_FIELDS,
} from './evaluate.ts';
import { parseFreeText } from './free-text.ts';
import { planWorkflowSearch, type SortKey, typesOf } from './planner.ts';
import type { SearchIndex, SearchIndexQuery, TaskRef } from './ports.ts';
import type { FreeText, QueryExpr } from './query-ast.ts';
import { parseQuery } from './query-parser.ts';
import { taskDoc, taskSummary, taskText, workflowDoc, workflowSummary, workflowText } from './summaries.ts';

export const MAX_PAGE = 5000;
/** Records read per batch while filtering candidates the index cannot answer. */
const BATCH = 500;

export interface SearchParams {
  start: number;
  size: number;
  sort?: string;
  freeText?: string;
  query?: string;
}

export interface SearchResult<T> {
  totalHits: number;
  results: T[];
}

interface Parsed {
  expr?: QueryExpr;
  free: FreeText;
  sort: SortKey[];
}

export function parseSort(text: string | undefined, fields: Readonly<Record<string, FieldType>>): SortKey[] {
  if (!text || text.trim() === '') return [{ field: 'startTime', descending: true }];
  return text.split(/[,|]/).flatMap((part) => {
    const [field = '', direction = 'ASC', extra] = part.trim().split(':');
    if (field === '') return [];
    if (extra !== undefined || !/^(ASC|DESC)$/i.test(direction)) {
      throw new ValidationError(`Invalid sort '${part.trim()}': expected field:ASC or field:DESC`);
    }
    if (!fields[field]) throw new ValidationError(`Invalid sort: unknown field '${field}'`);
    return [{ field, descending: direction.toUpperCase() === 'DESC' }];
  });
}

function parse(params: SearchParams, fields: Readonly<Record<string, FieldType>>): Parsed {
  const expr = parseQuery(params.query);
  checkQuery(expr, fields);
  return { expr, free: parseFreeText(params.freeText), sort: parseSort(params.sort, fields) };
}

function comparator(sort: readonly SortKey[]): (a: SearchDoc, b: SearchDoc) => number {
  return (a, b) => {
    for (const key of sort) {
      const x = a[key.field];
      const y = b[key.field];
      if (x === y) continue;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      const order = x < y ? -1 : 1;
      return key.descending ? -order : order;
    }
    // Ties are broken by id, so pages of the same query never overlap or skip.
    const x = String(a.workflowId ?? '') + String(a.taskId ?? '');
    const y = String(b.workflowId ?? '') + String(b.taskId ?? '');
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

const rowDoc = (row: RunIndexRow): SearchDoc => ({
  workflowId: row.workflowId,
  workflowType: row.workflowName,
  version: row.workflowVersion,
  status: row.status,
  correlationId: row.correlationId,
  startTime: row.createTime,
});

/** The search of a host's services: over its search index when it has one, else over its store. */
export const searchServiceOf = (services: ServiceContext): SearchService =>
  new SearchService(services.stores.executions, services.searchIndex, services.clock);

export class SearchService {
  constructor(
    private readonly executions: RunQueries & TaskRows,
    private readonly index?: SearchIndex,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Matching runs, sorted and paged; the records of the page only where the plan allows. */
  async workflows(params: SearchParams): Promise<SearchResult<WorkflowRecord>> {
    const { expr, free, sort } = parse(params, WORKFLOW_FIELDS);
    if (this.index) {
      const found = await this.index.workflows(this.indexQuery(params, { expr, free, sort }));
      const records = await this.executions.getWorkflowsById(found.ids);
      return { totalHits: found.totalHits - (found.ids.length - records.length), results: records };
    }
    const plan = planWorkflowSearch(expr, free, sort, this.clock.now());
    const rows = (
      await this.executions.runIndex(plan.covered ? plan.read : { ...plan.read, containing: wordsOf(free) })
    ).filter((row) => matchesQuery(plan.rowFilter, rowDoc(row), WORKFLOW_FIELDS));
    if (plan.covered) {
      const docs = rows.map(rowDoc).sort(comparator(sort));
      const page = docs.slice(params.start, params.start + params.size).map((doc) => String(doc.workflowId));
      const records = await this.executions.getWorkflowsById(page);
      // A row whose run is gone (removed since) is dropped and the count lowered (docs/conductor-compat.md
      // §2.11).
      return { totalHits: docs.length - (page.length - records.length), results: records };
    }
    const matches: { doc: SearchDoc; record: WorkflowRecord }[] = [];
    for (let i = 0; i < rows.length; i += BATCH) {
      const records = await this.executions.getWorkflowsById(
        rows.slice(i, i + BATCH).map((row) => row.workflowId),
      );
      for (const record of records) {
        const doc = workflowDoc(record);
        if (!matchesQuery(expr, doc, WORKFLOW_FIELDS)) continue;
        if (!matchesFreeText(free, doc, () => workflowText(record))) continue;
        matches.push({ doc, record });
      }
    }
    const order = comparator(sort);
    matches.sort((a, b) => order(a.doc, b.doc));
    return {
      totalHits: matches.length,
      results: matches.slice(params.start, params.start + params.size).map((m) => m.record),
    };
  }

  async workflowSummaries(params: SearchParams) {
    const found = await this.workflows(params);
    return { totalHits: found.totalHits, results: found.results.map(workflowSummary) };
  }

  /** Matching task rows, sorted and paged. */
  async tasks(params: SearchParams): Promise<SearchResult<TaskRecord>> {
    const { expr, free, sort } = parse(params, TASK_FIELDS);
    if (this.index) {
      const found = await this.index.tasks(this.indexQuery(params, { expr, free, sort }));
      const tasks = await this.liveTasks(found.ids);
      return { totalHits: found.totalHits - (found.ids.length - tasks.length), results: tasks };
    }
    const all = await this.taskCandidates(expr);
    const matches = all.flatMap((task) => {
      const doc = taskDoc(task);
      return matchesQuery(expr, doc, TASK_FIELDS) && matchesFreeText(free, doc, () => taskText(task))
        ? [{ doc, task }]
        : [];
    });
    const order = comparator(sort);
    matches.sort((a, b) => order(a.doc, b.doc));
    return {
      totalHits: matches.length,
      results: matches.slice(params.start, params.start + params.size).map((m) => m.task),
    };
  }

  async taskSummaries(params: SearchParams) {
    const found = await this.tasks(params);
    return { totalHits: found.totalHits, results: found.results.map(taskSummary) };
  }

  /** Runs that have a task matching the query (task fields), newest first unless sorted. */
  async workflowsByTasks(params: SearchParams): Promise<SearchResult<WorkflowRecord>> {
    const sort = parseSort(params.sort, WORKFLOW_FIELDS);
    const ids = await this.runIdsByTasks(params);
    const records = await this.executions.getWorkflowsById(ids);
    const order = comparator(sort);
    const docs = records
      .map((record) => ({ doc: workflowDoc(record), record }))
      .sort((a, b) => order(a.doc, b.doc));
    return {
      totalHits: docs.length,
      results: docs.slice(params.start, params.start + params.size).map((d) => d.record),
    };
  }

  /** The ids of the runs that have a task matching the query. */
  private async runIdsByTasks(params: SearchParams): Promise<string[]> {
    if (this.index) {
      const { expr, free } = parse({ ...params, sort: undefined }, TASK_FIELDS);
      const query = { expr, free, sort: [], start: 0, size: this.index.maxWindow, now: this.clock.now() };
      const found = await this.index.tasks(query);
      if (found.totalHits > found.ids.length) {
        throw new ValidationError(
          `More than ${this.index.maxWindow} tasks match; narrow the query to search runs by their tasks`,
        );
      }
      return [...new Set(found.ids.map((ref) => ref.workflowId))];
    }
    const tasks = await this.tasks({ ...params, sort: undefined, start: 0, size: Number.MAX_SAFE_INTEGER });
    return [...new Set(tasks.results.map((task) => task.workflowInstanceId))];
  }

  private indexQuery(params: SearchParams, parsed: Parsed): SearchIndexQuery {
    const { start, size } = params;
    return { expr: parsed.expr, free: parsed.free, sort: parsed.sort, start, size, now: this.clock.now() };
  }

  /**
   * The task rows of the refs, in order, leaving out those of runs that are gone or expired, and
   * rows an earlier run under a reused id left (run-rows.ts).
   */
  private async liveTasks(refs: readonly TaskRef[]): Promise<TaskRecord[]> {
    const records = await this.executions.getWorkflowsById(refs.map((ref) => ref.workflowId));
    const runs = new Set(records.map((r) => r.workflowId));
    const byRun = new Map<string, string[]>();
    for (const ref of refs) {
      if (runs.has(ref.workflowId))
        byRun.set(ref.workflowId, [...(byRun.get(ref.workflowId) ?? []), ref.taskId]);
    }
    const rows = (
      await Promise.all(
        [...byRun].map(([workflowId, taskIds]) => this.executions.getTasks(workflowId, taskIds)),
      )
    ).flat();
    const byId = new Map(rowsOfRuns(records, rows).map((task) => [task.taskId, task]));
    return refs.flatMap((ref) => {
      const task = byId.get(ref.taskId);
      return task ? [task] : [];
    });
  }

  async workflowSummariesByTasks(params: SearchParams) {
    const found = await this.workflowsByTasks(params);
    return { totalHits: found.totalHits, results: found.results.map(workflowSummary) };
  }

  /**
   * Task rows of the runs the query's workflowId pins, else of its taskType (byTaskType), else of
   * the runs its workflowType pins (byName), else of every run (a scan).
   */
  private async taskCandidates(expr: QueryExpr | undefined): Promise<TaskRecord[]> {
    const names = typesOf(expr) ?? typesOf(expr, 'workflowName');
    const runIds = typesOf(expr, 'workflowId');
    if (runIds) return this.executions.scanTasks(runIds);
    const taskTypes = typesOf(expr, 'taskType');
    if (taskTypes) return this.executions.tasksOfTypes(taskTypes);
    if (!names) return this.executions.scanTasks();
    const rows = await this.executions.runIndex({ names });
    return this.executions.scanTasks(rows.map((row) => row.workflowId));
  }
}

/**
 * The free-text words a run's stored JSON must hold for the run to match: unfielded terms without
 * whitespace or characters JSON writes escaped (a quote, a backslash, control characters), which
 * appear in the stored JSON exactly as in the run's text (lib/search/summaries.ts workflowText).
 */
function wordsOf(free: FreeText): string[] {
  return free.terms.flatMap((term) => {
    if (term.field !== undefined) return [];
    const word = term.value.toLowerCase().replaceAll('*', '');
    return word !== '' && !/\s/.test(word) && JSON.stringify(word) === `"${word}"` ? [word] : [];
  });
}
