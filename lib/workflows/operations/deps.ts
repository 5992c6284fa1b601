/**
 * What the workflow operations work over, beyond RunMutator's read-change-commit of the run: the
 * engine's RunEnd, for what follows the end of a run an operation reopens or removes.
 */
import type { TaskTypeRegistry } from '../../engine/registry.ts';
import type { RunEnd } from '../../engine/run-end.ts';
import type { Clock } from '../../model/clock.ts';
import type { WorkflowDef } from '../../model/definitions.ts';
import type { ExecutionStore, TaskQueue } from '../../store/ports.ts';
import type { RunMutator } from './run-mutator.ts';

/** The latest registered definition of a workflow, task definitions embedded (404 when there is none). */
export type LatestDefinition = (name: string) => Promise<WorkflowDef>;

export interface OperationDeps {
  mutator: RunMutator;
  /** What follows a run's end (children ended, parent told) and goes with its removal (its message queue). */
  runEnd: RunEnd;
  executions: ExecutionStore;
  queue: TaskQueue;
  registry: TaskTypeRegistry;
  clock: Clock;
  /** The latest registered definition of a name (restart's useLatestDefinitions). */
  latestDefinition: LatestDefinition;
}
