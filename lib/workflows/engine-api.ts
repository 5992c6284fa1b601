/**
 * The engine as capabilities and routes see it: the starter, the worker task service, the run
 * reader, the operations, test runs, sync execution and the payload locations. Declared here, below
 * the composition root that builds it (lib/runtime/engine.ts), so the capability contract can name
 * it without depending on the host.
 */
import type { Executor } from '../engine/executor.ts';
import type { SystemTaskRunner } from '../engine/system-tasks.ts';
import type { PayloadLocations } from '../payloads/locations.ts';
import type { TaskService } from '../tasks/service.ts';
import type { SyncExecution } from './execute.ts';
import type { WorkflowOperations } from './operations/index.ts';
import type { WorkflowReader } from './service.ts';
import type { WorkflowStarter } from './start.ts';
import type { WorkflowTestRunner } from './test-run/runner.ts';

export interface Engine {
  executor: Executor;
  starter: WorkflowStarter;
  tasks: TaskService;
  reader: WorkflowReader;
  /** Operations on existing runs (terminate...), each a read-change-commit through RunMutator. */
  operations: WorkflowOperations;
  /** Test runs against mocked workers (POST /workflow/test), each in a throwaway engine. */
  testRuns: WorkflowTestRunner;
  /** Synchronous execution (POST /api/workflow/execute). */
  execution: SyncExecution;
  /** Asks for a decide of the run (PUT /workflow/decide). */
  requestDecide(workflowId: string): Promise<void>;
  /** Waits until the run's record moves past `rev` (a decide committed) or the time is up. */
  waitForProgress(workflowId: string, rev: number, timeoutMs: number): Promise<void>;
  /** External storage locations of large payloads (externalstoragelocation routes). */
  payloads: PayloadLocations;
  /** Carries out the async system tasks handed off the decider (the system-task queue's consumer). */
  systemTasks: SystemTaskRunner;
}
