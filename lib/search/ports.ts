/**
 * The search index port: an external index of runs and task rows (OpenSearch, fed from the
 * executions table's change stream) that answers the same parsed query the store planner answers.
 * It returns ids and an exact count only; the records themselves are read from the execution store
 * by id, so what a search shows is what the store holds (retention, removals) and no second copy of
 * a record's shape exists. The writer side is what the indexer (lib/jobs/search-indexer.ts) feeds.
 */
import type { SortKey } from './planner.ts';
import type { FreeText, QueryExpr } from './query-ast.ts';
import type { RunFields, TaskFields } from './summaries.ts';

export interface SearchIndexQuery {
  expr?: QueryExpr;
  free: FreeText;
  sort: readonly SortKey[];
  start: number;
  size: number;
  /** Runs whose `expiresAt` has passed are left out (retention; TTL deletes them later). */
  now: number;
}

export interface IndexPage<T> {
  totalHits: number;
  ids: T[];
}

export interface TaskRef {
  workflowId: string;
  taskId: string;
}

export interface SearchIndex {
  /** The largest `start + size` one query may reach (OpenSearch's index.max_result_window). */
  readonly maxWindow: number;
  workflows(query: SearchIndexQuery): Promise<IndexPage<string>>;
  tasks(query: SearchIndexQuery): Promise<IndexPage<TaskRef>>;
}

/** One change of the executions table, as its change stream reports it (lib/store/dynamodb). */
export type ExecutionChange =
  /**
   * `expired`: a removal by the table's TTL (retention), not by the service, at `removedAt` (epoch
   * ms, to the second) when the stream says.
   */
  | { kind: 'workflow'; workflowId: string; record?: RunFields; expired?: boolean; removedAt?: number }
  /** A task row's change names only its task: a homed row's key does not name its run (ids.ts homeOf). */
  | { kind: 'task'; taskId: string; record?: TaskFields };

/** A document to (re)index, or to delete (no `doc`). */
export interface IndexOp {
  kind: 'workflow' | 'task';
  id: string;
  doc?: Record<string, unknown>;
}

export interface SearchIndexWriter {
  /** Applies the operations in order; throws when any failed (the batch is delivered again). */
  write(ops: readonly IndexOp[]): Promise<void>;
}
