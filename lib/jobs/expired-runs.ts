/**
 * Expired runs (`service.workflow.retention`): DynamoDB's TTL deletes an ended run's item once its
 * retention is over (lib/workflows/retention.ts), and the table's stream then reports that removal.
 * This consumer removes what the run leaves behind, its task rows and their log lines, as removing
 * the run through the API would (ExecutionStore.removeWorkflow: a Query of the run's items, then
 * batched deletes). Without it the rows of every expired run would stay forever.
 *
 * Only TTL removals of run items reach its function (the event filter below: Lambda drops every
 * other record before invoking it, unbilled), and it checks each change again. Removing twice
 * removes nothing more, so the stream's at-least-once delivery is harmless. Deployed only with a
 * retention set on the stack (`-c service.workflow.retention=30d`); the local host has no stream
 * (its store never expires runs: readers hide them instead).
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
    description: 'Stream batches of expired runs whose task rows were not removed (remove them by id)',
  },
  timeoutSeconds: 300,
  async handle(changes, deps) {
    const expired = changes.flatMap((c) => (c.kind === 'workflow' && c.expired ? [c.workflowId] : []));
    const executions = deps.executions();
    for (let i = 0; i < expired.length; i += CONCURRENCY) {
      await Promise.all(expired.slice(i, i + CONCURRENCY).map((id) => executions.removeWorkflow(id)));
    }
    if (expired.length > 0) deps.logger.info('removed expired runs', { runs: expired.length });
  },
  grants: { tables: [{ table: EXECUTIONS_TABLE, access: 'readWrite' }], sends: [] },
};
