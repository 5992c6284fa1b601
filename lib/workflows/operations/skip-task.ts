/**
 * Skip a task (docs/conductor-compat.md §4.7 skiptask, §2.14 SkipTaskRequest): in a RUNNING run, a
 * reference of the definition that has not been scheduled yet gets a SKIPPED row carrying the given
 * input and output. When the flow reaches that reference the decider jumps over it
 * (RunContext.schedule), and `${ref.output}` reads the supplied output. OSS answers each failed
 * precondition with a 500; here they are 409 (state) and 400 (unknown or unskippable reference).
 */
import { graphOf } from '../../model/definition-graph.ts';
import type { WorkflowTask } from '../../model/definitions.ts';
import { ConflictError, ValidationError } from '../../model/errors.ts';
import type { TaskRecord, WorkflowRecord } from '../../model/execution.ts';
import { taskIdOf } from '../../model/ids.ts';
import { specOf } from '../../model/task-types/index.ts';
import type { RunChange, RunMutator } from './run-mutator.ts';

export interface SkipTaskRequest {
  taskInput?: Record<string, unknown>;
  taskOutput?: Record<string, unknown>;
}

export function skipTaskChange(ref: string, request: SkipTaskRequest): RunChange {
  return (run, _openRows, now) => {
    if (run.status !== 'RUNNING') {
      throw new ConflictError(`Workflow is ${run.status}; a task can be skipped only in a RUNNING workflow`);
    }
    const graph = graphOf(run.workflowDefinition);
    const workflowTask = graph.task(ref);
    // graph.task reads loop iteration names (x__2) as their base name; only the exact name counts.
    if (!workflowTask || workflowTask.taskReferenceName !== ref) {
      throw new ValidationError(`Task ${ref} not found in workflow definition ${run.workflowName}`);
    }
    if (graph.enclosingLoop(ref)) {
      throw new ValidationError(`Task ${ref} runs inside a DO_WHILE loop and cannot be skipped`);
    }
    const spec = specOf(workflowTask.type);
    // Jumping over a fork or a join would leave the join waiting for branches that never run.
    if (spec.operator && spec.afterChildren !== 'continue' && !spec.loop) {
      throw new ValidationError(`Task ${ref} is a ${workflowTask.type}, which cannot be skipped`);
    }
    if (run.tasks.some((t) => t.referenceTaskName === ref)) {
      throw new ConflictError(
        `Task ${ref} is already scheduled in workflow ${run.workflowId}; only a task not scheduled yet can be skipped`,
      );
    }
    const seq = run.seq + 1;
    const skipped = skippedRow(run, workflowTask, seq, request, now);
    return { run: { ...run, seq, tasks: [...run.tasks, skipped], updateTime: now }, created: [skipped] };
  };
}

function skippedRow(
  run: WorkflowRecord,
  workflowTask: WorkflowTask,
  seq: number,
  request: SkipTaskRequest,
  now: number,
): TaskRecord {
  const ref = workflowTask.taskReferenceName;
  return {
    // The id the decider would give the task's first attempt: a retried skip adopts the same row.
    taskId: taskIdOf(run, ref, 0),
    taskType: workflowTask.type,
    taskDefName: workflowTask.name,
    referenceTaskName: ref,
    status: 'SKIPPED',
    inputData: request.taskInput ?? {},
    outputData: request.taskOutput ?? {},
    workflowInstanceId: run.workflowId,
    workflowType: run.workflowName,
    correlationId: run.correlationId,
    workflowPriority: run.priority,
    retryCount: 0,
    seq,
    pollCount: 0,
    scheduledTime: now,
    startTime: 0,
    endTime: now,
    updateTime: now,
    startDelayInSeconds: 0,
    callbackAfterSeconds: 0,
    responseTimeoutSeconds: 0,
    retried: false,
    executed: false,
    callbackFromWorker: false,
    workflowTask,
    rateLimitPerFrequency: 0,
    rateLimitFrequencyInSeconds: 1,
    iteration: 0,
    firstScheduledTime: now,
    waitTimeout: 0,
    rev: 0,
  };
}

/** Skips a task not scheduled yet. 404 unknown run, 409 not RUNNING or already scheduled, 400 bad reference. */
export async function skipTask(
  mutator: RunMutator,
  workflowId: string,
  ref: string,
  request: SkipTaskRequest,
): Promise<void> {
  await mutator.mutate(workflowId, skipTaskChange(ref, request), { mustExist: true });
}
