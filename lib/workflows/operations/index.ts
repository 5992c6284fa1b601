/**
 * The workflow operations the API offers over existing runs, one module each in this folder, all
 * through one RunMutator. A new operation is a pure change in its own file and one method here.
 */
import type { RunMutator } from './run-mutator.ts';
import { terminate } from './terminate.ts';

export class WorkflowOperations {
  constructor(private readonly mutator: RunMutator) {}

  /** Ends a running run as TERMINATED; false when it is already over (or does not exist). */
  terminate(workflowId: string, reason: string): Promise<boolean> {
    return terminate(this.mutator, workflowId, reason);
  }
}
