/**
 * Ids. Workflow ids are random; task and child-workflow ids are derived from what identifies them
 * (workflow id, reference name, retry count), so a decide that crashes and runs again computes the
 * same ids and converges instead of creating duplicates.
 */
import { createHash, randomUUID } from 'node:crypto';

export interface IdGenerator {
  /** A fresh random id (UUID v4). */
  random(): string;
}

export const randomIds: IdGenerator = { random: () => randomUUID() };

/** A name-based UUID (version 5 layout over SHA-1) of the given parts. */
export function derivedId(...parts: (string | number)[]): string {
  const hash = createHash('sha1').update(parts.join('\u0000')).digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A task attempt's id. `epoch` counts the run's restarts and reruns, so a task scheduled after one
 * gets an id of its own rather than one of the deleted pass's (epoch 0 keeps the original ids).
 */
export const taskIdOf = (workflowId: string, referenceName: string, retryCount: number, epoch = 0): string =>
  epoch === 0
    ? derivedId('task', workflowId, referenceName, retryCount)
    : derivedId('task', workflowId, referenceName, retryCount, epoch);

export const childWorkflowIdOf = (parentWorkflowId: string, taskId: string): string =>
  derivedId('subworkflow', parentWorkflowId, taskId);
