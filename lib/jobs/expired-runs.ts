/**
 * Expired runs (`service.workflow.retention`): DynamoDB's TTL deletes an ended run's item once its
 * retention is over (lib/workflows/retention.ts), and the table's stream then reports that removal.
 * This consumer deletes what the run leaves behind, its task rows and their log lines
 * (ExpiredRunRemover: a Query of the run's items, then conditional deletes). Without it the rows
 * of every expired run would stay forever.
 *
 * Some run ids come back (an idempotency key's, an event's), so it deletes nothing while a run of
 * the id exists again, and only rows and lines from before the removal: a run created again
 * meanwhile loses nothing, whenever this runs (a lagging or redriven batch); the expired run's rows
 * then go when that run is removed or expires, and its reads and task search leave them out
 * meanwhile (its task ids derive from its own generation: model/ids.ts, store/run-rows.ts). Only TTL removals
 * of run items reach its function (the event filter below: Lambda drops every other record before
 * invoking it, unbilled), and it checks each change again. Running twice deletes nothing more, so
 * the stream's at-least-once delivery is harmless. Deployed only with a retention set on the stack
 * (`-c service.workflow.retention=30d`); the local host has no stream (its store never expires
 * runs: readers hide them instead).
 */
import { configOf } from '../config/load.ts';
import { TTL_DELETER } from '../store/dynamodb/execution-changes.ts';
import { WORKFLOW_SK } from '../store/dynamodb/execution-items.ts';
import { EXECUTIONS_TABLE } from '../store/dynamodb/tables.ts';
import type { StreamConsumer } from './types.ts';

/** Runs removed at once within one batch. */
const CONCURRENCY = 4;

const RETENTION = 'service.workflow.retention';

/** Whether the stack's properties set a retention: read as the service reads it (0 keeps runs forever). */
const retentionOn = (properties: Readonly<Record<string, string>>): boolean => {
  const value = properties[RETENTION];
  return value !== undefined && configOf({ [RETENTION]: value }).number(RETENTION) > 0;
};

export const expiredRuns: StreamConsumer = {
  name: 'expired-runs',
  summary: 'removes the task rows and logs of runs whose retention expired (DynamoDB TTL)',
  deployedWith: (choices) => retentionOn(choices.properties),
  filters: [
    {
      eventName: ['REMOVE'],
      userIdentity: { type: [TTL_DELETER.type], principalId: [TTL_DELETER.principalId] },
      dynamodb: { Keys: { sk: { S: [WORKFLOW_SK] } } },
    },
  ],
  table: EXECUTIONS_TABLE,
  batchSize: 100,
  retryAttempts: 10,
  deadLetters: {
    output: 'ExpiredRunsDeadLetterQueueUrl',
    description: 'Stream batches of expired runs whose task rows were not removed (they stay in the table)',
  },
  timeoutSeconds: 300,
  async handle(changes, deps) {
    const now = Date.now();
    const expired = changes.flatMap((c) =>
      c.kind === 'workflow' && c.expired ? [{ id: c.workflowId, before: c.removedAt ?? now }] : [],
    );
    const remover = deps.expiredRuns();
    for (let i = 0; i < expired.length; i += CONCURRENCY) {
      await Promise.all(
        expired.slice(i, i + CONCURRENCY).map((run) => remover.removeExpiredRun(run.id, run.before)),
      );
    }
    if (expired.length > 0) deps.logger.info('removed expired runs', { runs: expired.length });
  },
  grants: { tables: [{ table: EXECUTIONS_TABLE, access: 'readWrite' }], sends: [] },
};
