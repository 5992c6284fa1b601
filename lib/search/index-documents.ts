import type { ExecutionChange, IndexOp } from './ports.ts';
import {
  type RunFields,
  type TaskFields,
  taskDoc,
  taskText,
  workflowDoc,
  workflowText,
} from './summaries.ts';

export function workflowIndexDoc(record: RunFields): Record<string, unknown> {
  return {
    ...workflowDoc(record),
    text: workflowText(record),
    ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}),
  };
}

export function taskIndexDoc(task: TaskFields): Record<string, unknown> {
  return { ...taskDoc(task), text: taskText(task) };
}

export function indexOpOf(change: ExecutionChange): IndexOp {
  if (change.kind === 'workflow') {
    const { workflowId, record } = change;
    return { kind: 'workflow', id: workflowId, doc: record ? workflowIndexDoc(record) : undefined };
  }
  return { kind: 'task', id: change.taskId, doc: change.record ? taskIndexDoc(change.record) : undefined };
}

/**
 * The operations of a batch of changes, in stream order, keeping only the last change of each
 * document: it is the document's current state, so the earlier ones would only be overwritten.
 */
export function indexOpsOf(changes: readonly ExecutionChange[]): IndexOp[] {
  const last = new Map<string, IndexOp>();
  for (const change of changes) {
    const op = indexOpOf(change);
    const key = `${op.kind}:${op.id}`;
    // Re-inserted so that the map's order is the order of each document's last change.
    last.delete(key);
    last.set(key, op);
  }
  return [...last.values()];
}
