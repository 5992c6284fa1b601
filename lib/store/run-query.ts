/**
 * The findWorkflows query of the execution store, and whether a run matches it: one predicate for
 * every adapter, over the fields a runs index holds (a record has them too).
 */
import type { RunIndexRow, RunQueries } from './ports.ts';

export type WorkflowQuery = Parameters<RunQueries['findWorkflows']>[0];

type QueriedFields = Pick<
  RunIndexRow,
  'workflowName' | 'workflowVersion' | 'status' | 'correlationId' | 'createTime'
>;

export function matchesQuery(run: QueriedFields, query: WorkflowQuery): boolean {
  if (run.workflowName !== query.name) return false;
  if (query.correlationId !== undefined && run.correlationId !== query.correlationId) return false;
  if (query.version !== undefined && run.workflowVersion !== query.version) return false;
  if (query.statuses && !query.statuses.includes(run.status)) return false;
  if (query.startedAfter !== undefined && run.createTime < query.startedAfter) return false;
  if (query.startedBefore !== undefined && run.createTime > query.startedBefore) return false;
  return true;
}
