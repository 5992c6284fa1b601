/**
 * The workflows capability: starting runs and the workflow API (`/api/workflow`), over the
 * executions table that the engine writes.
 */
import type { Capability } from '../capability-contract.ts';
import { ConfigError } from '../config/load.ts';
import { decider, timer } from '../jobs/decision-consumers.ts';
import { expiredRuns } from '../jobs/expired-runs.ts';
import { searchIndexer } from '../jobs/search-indexer.ts';
import { sweeper } from '../jobs/sweeper.ts';
import { systemTasks } from '../jobs/system-tasks.ts';
import { MIN_SWEEP_GRACE_MS, type PayloadSweepProvided, payloadSweep } from '../payloads/sweep.ts';
import { workflowSearchRoutes } from '../search/routes.ts';
import { searchServiceOf } from '../search/service.ts';
import { DynamoExecutionStore } from '../store/dynamodb/executions.ts';
import { DEFINITIONS_TABLE, EXECUTIONS_TABLE, QUEUES_TABLE, tableName } from '../store/dynamodb/tables.ts';
import { EmbeddedExecutionStore } from '../store/embedded/executions.ts';
import { MemoryExecutionStore } from '../store/memory/executions.ts';
import type { ExecutionStore } from '../store/ports.ts';
import { executionStoreStack } from './execution-stack.ts';
import { workflowRoutes } from './routes/index.ts';

export interface WorkflowStores {
  executions: ExecutionStore;
}

export const workflowsCapability: Capability<WorkflowStores, PayloadSweepProvided> = {
  name: 'workflows',
  tables: [EXECUTIONS_TABLE],
  checkConfig: (config) => {
    const grace = config.number('service.external-payload.sweep-grace');
    if (grace < MIN_SWEEP_GRACE_MS) {
      throw new ConfigError(
        `Property service.external-payload.sweep-grace must be at least 2h (the payload sweep must not reclaim a payload a run is being committed with), got ${grace / 1000} s`,
      );
    }
  },
  stores: {
    memory: () => ({ executions: new MemoryExecutionStore() }),
    embedded: (source) => ({ executions: new EmbeddedExecutionStore(source.db) }),
    dynamodb: (doc, tables) => ({
      executions: new DynamoExecutionStore(doc, tableName(tables, EXECUTIONS_TABLE)),
    }),
  },
  // Every reader and writer of runs goes through one stack (lib/workflows/execution-stack.ts):
  // records stay small, readers see whole payloads, ended runs past their retention are hidden,
  // and every write is published to the requests waiting on the run.
  decorate: ({ executions }, { config, clock, payloads, watcher }) => ({
    executions: executionStoreStack(executions, {
      externalize: {
        payloads,
        thresholdBytes: config.number('service.external-payload.threshold-bytes'),
        recordBudgetBytes: config.number('service.external-payload.record-budget-bytes'),
        // The payload sweep reads the same clock (a put is trusted for PUT_MEMORY_MS of it).
        now: () => clock.now(),
      },
      retention: {
        runsMs: config.number('service.workflow.retention'),
        logsMs: config.number('service.task.log-retention'),
        clock,
      },
      publishTo: watcher,
    }),
  }),
  // Runs and task rows name their externalized payloads: the payload sweep keeps those.
  payloadReferences: {
    tables: [EXECUTIONS_TABLE],
    list: ({ executions }, visit) => executions.payloadReferences(visit),
  },
  provides: (services) => ({
    payloadSweep: {
      payloads: services.payloads,
      references: (visit) => services.payloadReferences(visit),
      enabled: services.config.boolean('service.external-payload.sweep'),
      graceMs: services.config.number('service.external-payload.sweep-grace'),
      clock: services.clock,
      logger: services.logger,
    },
  }),
  // The engine's background work: decides, wake-ups, HTTP tasks off the decider, the sweeper, the
  // payload sweep, and on AWS the change-stream consumers of the executions table.
  jobs: [sweeper, payloadSweep],
  consumers: [decider, timer, systemTasks],
  streamConsumers: [searchIndexer, expiredRuns],
  routes: (services) => [
    ...workflowSearchRoutes(searchServiceOf(services)),
    ...workflowRoutes(services.engine),
  ],
  apiRoutes: ['ANY /api/workflow', 'ANY /api/workflow/{proxy+}'],
  // A synchronous execute runs the run's first decide in the request, and a test run all of them.
  scriptWorker: true,
  grants: {
    // Starting a run reads its definition and writes the run, its first tasks and their queue entries.
    tables: [
      { table: DEFINITIONS_TABLE, access: 'read' },
      { table: EXECUTIONS_TABLE, access: 'readWrite' },
      { table: QUEUES_TABLE, access: 'readWrite' },
    ],
    // Sync execute decides, and operations end and remove runs: what the capabilities ask of
    // deciding functions (schemas, the runs' message queues).
    engine: 'decides',
    // Starts and the decide endpoint request decides now; operations that decide inside the request
    // (sync execute) go through the executor, which arms the run's next wake-up after each commit,
    // hands the HTTP tasks its decides create to the system-task queue, and sends EVENT tasks'
    // conductor: messages to the events queue.
    sends: ['decisions', 'timers', 'system-tasks', 'events'],
    // Runs read back whole, large starts stored, and presigned payload URLs signed by this role.
    payloads: 'readWrite',
    // With searchBackend=opensearch, workflow search answers from the collection (read only).
    search: 'read',
  },
};
