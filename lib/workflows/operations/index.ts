/**
 * The workflow operations the API offers over existing runs, one module each in this folder, all
 * through one RunMutator. A new operation is a pure change in its own file and one method here.
 * What follows the end of a run they end, reopen or remove is the engine's RunEnd, which the
 * executor shares; the engine's own terminate of a child (RunEnd.terminateChild) is not one of
 * these methods.
 * Unknown runs are NotFoundErrors (404), state conflicts ConflictErrors (409) naming the state.
 */
import type { WorkflowRecord } from '../../model/execution.ts';
import type { OperationDeps } from './deps.ts';
import { pause } from './pause.ts';
import { type RemoveOptions, remove } from './remove.ts';
import { type RerunRequest, rerun } from './rerun.ts';
import { resetCallbacks } from './reset-callbacks.ts';
import { type RestartOptions, restart } from './restart.ts';
import { resume } from './resume.ts';
import { type RetryOptions, retry } from './retry.ts';
import { setVariables } from './set-variables.ts';
import { type SkipTaskRequest, skipTask } from './skip-task.ts';
import { type TerminateOptions, terminate } from './terminate.ts';
import { terminateRemove } from './terminate-remove.ts';

export type {
  OperationDeps,
  RemoveOptions,
  RerunRequest,
  RestartOptions,
  RetryOptions,
  SkipTaskRequest,
  TerminateOptions,
};

export class WorkflowOperations {
  constructor(private readonly deps: OperationDeps) {}

  /** Runs an ended run again from its failed tasks (204); 409 when it is not ended or nothing failed. */
  retry(workflowId: string, options: RetryOptions = {}): Promise<void> {
    return retry(this.deps, workflowId, options);
  }

  /** Starts an ended run over under its id (204); 409 when it is still going. */
  restart(workflowId: string, options: RestartOptions = {}): Promise<void> {
    return restart(this.deps, workflowId, options);
  }

  /** Runs an ended run again from the start or from one of its tasks; answers the run's id. */
  rerun(workflowId: string, request: RerunRequest): Promise<string> {
    return rerun(this.deps, workflowId, request);
  }

  /** PUT /workflow/{id}/pause; false when it was already PAUSED. */
  pause(workflowId: string): Promise<boolean> {
    return pause(this.deps.mutator, workflowId);
  }

  /** PUT /workflow/{id}/resume. */
  resume(workflowId: string): Promise<void> {
    return resume(this.deps.mutator, workflowId);
  }

  /** DELETE /workflow/{id}: ends the run as TERMINATED; false when it already was. */
  terminate(workflowId: string, reason?: string, options: TerminateOptions = {}): Promise<boolean> {
    return terminate(this.deps, workflowId, reason, options);
  }

  /** DELETE /workflow/{id}/remove. */
  remove(workflowId: string, options: RemoveOptions = {}): Promise<void> {
    return remove(this.deps, workflowId, options);
  }

  /** DELETE /workflow/{id}/terminate-remove; `archive` changes nothing (the run is over when removed). */
  terminateRemove(workflowId: string, reason?: string, _options: RemoveOptions = {}): Promise<void> {
    return terminateRemove(this.deps, workflowId, reason);
  }

  /** POST /workflow/{id}/resetcallbacks. */
  resetCallbacks(workflowId: string): Promise<void> {
    return resetCallbacks(this.deps, workflowId);
  }

  /** PUT /workflow/{id}/skiptask/{ref}. */
  skipTask(workflowId: string, ref: string, request: SkipTaskRequest = {}): Promise<void> {
    return skipTask(this.deps.mutator, workflowId, ref, request);
  }

  /** POST /workflow/{id}/variables: answers the committed run. */
  async setVariables(
    workflowId: string,
    variables: Record<string, unknown>,
  ): Promise<WorkflowRecord | undefined> {
    return setVariables(this.deps.mutator, workflowId, variables);
  }
}
