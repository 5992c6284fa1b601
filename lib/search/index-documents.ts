/**
 * What the search index holds: one document per run and one per task row, with the search field
 * names of evaluate.ts (the same documents the in-process filter reads), plus `text` (what a bare
 * free-text term matches) and a run's `expiresAt` (retention). A change of the executions table
 * becomes an index operation: a put indexes the document again, a removal (a delete, a rerun
 * dropping task rows, or TTL expiry) deletes it.
 */
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
