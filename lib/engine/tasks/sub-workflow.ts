/**
 * SUB_WORKFLOW (docs/conductor-compat.md §5.10): starts a child run with a deterministic id (so a
 * re-run decide starts no second child), links parent and child both ways, and follows the
 * child's end: COMPLETED -> COMPLETED with the child's output merged in, FAILED -> FAILED,
 * TERMINATED -> CANCELED, TIMED_OUT -> TIMED_OUT. Canceling the task terminates the child.
 */
import type { WorkflowDef } from '../../model/definitions.ts';
import type { TaskRecord, TaskStatus, WorkflowRecord } from '../../model/execution.ts';
import { childWorkflowIdOf } from '../../model/ids.ts';
import { subWorkflowSpec } from '../../model/task-types/sub-workflow.ts';
import type { TaskType } from '../task-type.ts';

export const subWorkflowTask: TaskType = {
  ...subWorkflowSpec,
  schedule(ctx, request) {
    const wt = request.workflowTask;
    const { workflowDefinition: rawInline, ...rawParams } = wt.subWorkflowParam ?? {};
    const params = (ctx.resolve(rawParams) ?? {}) as Record<string, unknown>;
    // An inline definition's templates belong to the child run and are resolved there; only a
    // `${...}` that names a whole definition is resolved against the parent.
    const inline = typeof rawInline === 'string' ? ctx.resolve(rawInline) : rawInline;
    const task = ctx.createTask(request, { taskType: 'SUB_WORKFLOW', status: 'IN_PROGRESS' });
    const childId = childWorkflowIdOf(ctx.workflow.workflowId, task.taskId);
    const name =
      typeof params.name === 'string' && params.name !== ''
        ? params.name
        : typeof inline === 'object' && inline !== null
          ? String((inline as WorkflowDef).name)
          : wt.name;
    const version = typeof params.version === 'number' ? params.version : undefined;
    const taskToDomain =
      (params.taskToDomain as Record<string, string> | undefined) ?? ctx.workflow.taskToDomain;
    const priority = typeof params.priority === 'number' ? params.priority : ctx.workflow.priority;
    task.startTime = ctx.now;
    task.subWorkflowId = childId;
    task.outputData = { subWorkflowId: childId };
    task.inputData = {
      ...task.inputData,
      subWorkflowName: name,
      subWorkflowVersion: version,
      subWorkflowTaskToDomain: taskToDomain,
      subWorkflowDefinition: typeof inline === 'object' ? inline : undefined,
      priority,
      workflowInput: task.inputData,
    };
    ctx.startChild({
      workflowId: childId,
      parentTaskId: task.taskId,
      name,
      version,
      workflowDefinition:
        typeof inline === 'object' && inline !== null ? (inline as Record<string, unknown>) : undefined,
      input: { ...(task.inputData.workflowInput as Record<string, unknown>) },
      taskToDomain,
      priority,
      correlationId: ctx.workflow.correlationId,
    });
    return [task];
  },
  cancel(ctx, task) {
    if (task.subWorkflowId) {
      ctx.terminateChild(
        task.subWorkflowId,
        `Parent workflow ${ctx.workflow.workflowId} ended: ${ctx.workflow.status}`,
      );
    }
  },
  onChildEnded: (task, child, now) => taskAfterChild(task, child, now),
};

const childToTask: Partial<Record<WorkflowRecord['status'], TaskStatus>> = {
  COMPLETED: 'COMPLETED',
  FAILED: 'FAILED',
  TERMINATED: 'CANCELED',
  TIMED_OUT: 'TIMED_OUT',
};

/** The parent's SUB_WORKFLOW task as it should be once its child is over; undefined while the child runs. */
export function taskAfterChild(task: TaskRecord, child: WorkflowRecord, now: number): TaskRecord | undefined {
  const status = childToTask[child.status];
  if (!status) return undefined;
  const failed = status !== 'COMPLETED';
  return {
    ...task,
    status,
    outputData: {
      ...task.outputData,
      ...(status === 'COMPLETED' ? child.output : {}),
      subWorkflowId: child.workflowId,
    },
    reasonForIncompletion: failed
      ? `Sub workflow ${child.workflowId} failure reason: ${child.reasonForIncompletion ?? child.status}`
      : task.reasonForIncompletion,
    endTime: now,
    updateTime: now,
    rev: task.rev + 1,
  };
}
