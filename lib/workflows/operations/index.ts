/**
 * The workflow operations the API offers over existing runs, one module each in this folder, all
 * through one RunMutator. A new operation is a pure change in its own file and one method here.
 */
import { type RerunRequest, rerun } from './rerun.ts';
import { type LatestDefinition, type RestartOptions, restart } from './restart.ts';
import { type RetryOptions, retry } from './retry.ts';
import type { RunMutator } from './run-mutator.ts';
import { terminate } from './terminate.ts';

/** What operations read beside the runs (restart's useLatestDefinitions). */
export interface OperationsDeps {
  latestDefinition: LatestDefinition;
}

export class WorkflowOperations {
  constructor(
    private readonly mutator: RunMutator,
    private readonly deps: OperationsDeps,
  ) {}

  /** Runs an ended run again from its failed tasks (204); 409 when it is not ended or nothing failed. */
  retry(workflowId: string, options: RetryOptions = {}): Promise<void> {
    return retry(this.mutator, workflowId, options);
  }

  /** Starts an ended run over under its id (204); 409 when it is still going. */
  restart(workflowId: string, options: RestartOptions = {}): Promise<void> {
    return restart(this.mutator, this.deps.latestDefinition, workflowId, options);
  }

  /** Runs an ended run again from the start or from one of its tasks; answers the run's id. */
  rerun(workflowId: string, request: RerunRequest): Promise<string> {
    return rerun(this.mutator, workflowId, request);
  }

  /** Ends a running run as TERMINATED; false when it is already over (or does not exist). */
  terminate(workflowId: string, reason: string): Promise<boolean> {
    return terminate(this.mutator, workflowId, reason);
  }
}
