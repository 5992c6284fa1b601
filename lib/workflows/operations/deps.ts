/** What the workflow operations work over, beyond RunMutator's read-change-commit of the run. */
import type { TaskTypeRegistry } from '../../engine/registry.ts';
import type { Clock } from '../../model/clock.ts';
import type { ExecutionStore, TaskQueue } from '../../store/ports.ts';
import type { LatestDefinition } from './restart.ts';
import type { RunMutator } from './run-mutator.ts';

export interface OperationDeps {
  mutator: RunMutator;
  executions: ExecutionStore;
  queue: TaskQueue;
  registry: TaskTypeRegistry;
  clock: Clock;
  /** The latest registered definition of a name (restart's useLatestDefinitions). */
  latestDefinition: LatestDefinition;
  /** After a run's removal: what else goes with it (its message queue). */
  onRunRemoved?(workflowId: string): Promise<void>;
}
