/**
 * Restart (docs/conductor-compat.md §4.7, POST /workflow/{id}/restart): an ended run starts over
 * under the same id. Every task row is deleted, the failure and output fields are cleared, the
 * clock starts again (createTime now), and the next decide schedules the first task. The input is
 * kept; with `useLatestDefinitions` the latest registered definition replaces the snapshot.
 *
 * The run's epoch goes up, and task ids derive from it (model/ids.ts), so the new pass's tasks
 * never share an id with a deleted row: a worker still holding an old task gets a 404, and a
 * restart that crashed after deleting rows simply runs again (the run is still ended).
 */
import type { WorkflowDef } from '../../model/definitions.ts';
import { ConflictError } from '../../model/errors.ts';
import { isTerminalWorkflow, type WorkflowRecord } from '../../model/execution.ts';
import type { OperationDeps } from './deps.ts';
import { runToReopen } from './reopen.ts';
import type { RunChange } from './run-mutator.ts';

export interface RestartOptions {
  useLatestDefinitions?: boolean;
}

/** What a rerun from the start may change beside the restart itself. */
export interface FreshStart {
  definition?: WorkflowDef;
  input?: Record<string, unknown>;
  correlationId?: string;
}

export function notTerminal(run: WorkflowRecord, operation: string): ConflictError {
  return new ConflictError(
    `Workflow ${run.workflowId} is ${run.status}; only a terminal workflow can be ${operation}`,
  );
}

/** The change that starts an ended run over; `operation` names it in a refusal. */
export function freshStartChange(operation: string, start: FreshStart = {}): RunChange {
  return (run, rows, now) => {
    if (!isTerminalWorkflow(run.status)) throw notTerminal(run, operation);
    const definition = start.definition ?? run.workflowDefinition;
    if (run.status === 'COMPLETED' && definition.restartable === false) {
      throw new ConflictError(
        `Workflow ${run.workflowId} is COMPLETED and its definition ${definition.name} version ${definition.version} is not restartable`,
      );
    }
    return {
      deleteTaskIds: rows.map((row) => row.taskId),
      run: {
        ...run,
        workflowName: definition.name,
        workflowVersion: definition.version,
        workflowDefinition: definition,
        status: 'RUNNING',
        createTime: now,
        updateTime: now,
        endTime: 0,
        input: start.input ?? run.input,
        correlationId: start.correlationId ?? run.correlationId,
        output: {},
        variables: JSON.parse(JSON.stringify(definition.variables ?? {})) as Record<string, unknown>,
        reasonForIncompletion: undefined,
        failedReferenceTaskNames: [],
        failedTaskNames: [],
        failedTaskId: undefined,
        lastRetriedTime: 0,
        tasks: [],
        seq: 0,
        // Due now, like a new run: if no decide follows this commit, the wake-up sweep finds it.
        wakeAt: now,
        wakeArmedAt: undefined,
        endedByEngine: undefined,
        epoch: (run.epoch ?? 0) + 1,
        retryTaskIds: undefined,
        rerunFrom: undefined,
        rerunOfTaskId: undefined,
        partialSince: undefined,
      },
    };
  };
}

export async function restart(
  deps: OperationDeps,
  workflowId: string,
  options: RestartOptions = {},
): Promise<void> {
  const run = await runToReopen(deps, workflowId);
  if (!isTerminalWorkflow(run.status)) throw notTerminal(run, 'restarted');
  const definition = options.useLatestDefinitions ? await deps.latestDefinition(run.workflowName) : undefined;
  await deps.mutator.mutate(workflowId, freshStartChange('restarted', { definition }), { allRows: true });
}
