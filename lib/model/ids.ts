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

export const taskIdOf = (workflowId: string, referenceName: string, retryCount: number): string =>
  derivedId('task', workflowId, referenceName, retryCount);

export const childWorkflowIdOf = (parentWorkflowId: string, taskId: string): string =>
  derivedId('subworkflow', parentWorkflowId, taskId);
