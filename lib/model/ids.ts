/**
 * Ids. Workflow ids are random; task and child-workflow ids are derived from what identifies them
 * (workflow id, reference name, retry count), so a decide that crashes and runs again computes the
 * same ids and converges instead of creating duplicates.
 */
import { hash as oneShotHash, randomUUID } from 'node:crypto';
import type { TaskRecord, WorkflowRecord } from './execution.ts';

export interface IdGenerator {
  /** A fresh random id (UUID v4). */
  random(): string;
}

export const randomIds: IdGenerator = { random: () => randomUUID() };

/** A name-based UUID (version 5 layout over SHA-1) of the given parts. */
export function derivedId(...parts: (string | number)[]): string {
  // The one-shot digest: a Hash object is a stream, and building one costs more than the hashing.
  const hash = oneShotHash('sha1', parts.join('\u0000'), 'buffer');
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** What a run's task ids derive from: its id, its epoch and its generation, and whether they are homed. */
export type RunIdentity = Pick<WorkflowRecord, 'workflowId' | 'epoch' | 'generation' | 'homedTaskIds'>;

/** How many leading characters of a homed task id are its run's home ("xxxxxxxx-xxxx-5xxx"). */
const HOME_LENGTH = 18;

/**
 * A run's home: the first 64 bits of a name-based UUID of its workflow id (60 of them from the
 * hash), as the first 18 characters of a UUID. The task ids of a homed run begin with it
 * (taskIdOf), so a store can keep the run's rows under a key it computes from any of its task ids
 * alone (the DynamoDB store: no index of rows by task id). Two workflow ids share a home with a
 * chance of 2^-60 per pair; a store that groups rows by home tells them apart by each row's run.
 */
export const homeOf = (workflowId: string): string => derivedId('home', workflowId).slice(0, HOME_LENGTH);

/** The home a task id begins with, if it was given by a homed run (else the first 18 characters of some other id). */
export const homeOfTask = (taskId: string): string => taskId.slice(0, HOME_LENGTH);

/** Whether an id may be a homed task's: every id taskIdOf gives is a UUID, 36 characters. */
export const mayBeHomed = (taskId: string): boolean => taskId.length === 36;

/** Whether a task id of the run is homed (begins with the run's home), not one of a run from before homes. */
export const isHomedTaskOf = (workflowId: string, taskId: string): boolean =>
  mayBeHomed(taskId) && taskId.startsWith(homeOf(workflowId));

/**
 * A task attempt's id. `epoch` counts the run's restarts and reruns, so a task scheduled after one
 * gets an id of its own rather than one of the deleted pass's. `generation` is set when the run is
 * created, so a run created again under an id that comes back (an idempotency key's, an event's)
 * never meets a task id of the earlier run, whose rows may outlive its record (DynamoDB TTL removes
 * the record first). Runs stored before generations existed (no `generation`) keep the ids they
 * had: epoch 0 without the epoch, later epochs with it.
 */
export function taskIdOf(
  run: RunIdentity,
  referenceName: string,
  retryCount: number,
  epoch = run.epoch ?? 0,
): string {
  if (run.generation !== undefined) {
    const id = derivedId('task', run.workflowId, referenceName, retryCount, epoch, run.generation);
    // The first 64 bits name the run's home; the other 64 (62 of them hash) tell its tasks apart.
    return run.homedTaskIds ? homeOf(run.workflowId) + id.slice(HOME_LENGTH) : id;
  }
  return epoch === 0
    ? derivedId('task', run.workflowId, referenceName, retryCount)
    : derivedId('task', run.workflowId, referenceName, retryCount, epoch);
}

/**
 * Whether a task row of the run's partition is this run's, not one an earlier run under the same
 * id left behind: its id is one this run gives (in any of its epochs). Rows of a run without a
 * generation are all its own.
 */
export function isRowOf(
  run: RunIdentity,
  row: Pick<TaskRecord, 'taskId' | 'referenceTaskName' | 'retryCount'>,
): boolean {
  if (run.generation === undefined) return true;
  for (let epoch = run.epoch ?? 0; epoch >= 0; epoch--) {
    if (taskIdOf(run, row.referenceTaskName, row.retryCount, epoch) === row.taskId) return true;
  }
  return false;
}

/**
 * The generation of a run created at `createTime` (epoch ms), in base 36. Two runs under one id are
 * never created in the same millisecond (the earlier one's record must be gone first: removed, or
 * expired and deleted by TTL), and a decide re-run after a crash reads it from the record, so the
 * ids stay deterministic.
 */
export const generationAt = (createTime: number): string => createTime.toString(36);

export const childWorkflowIdOf = (parentWorkflowId: string, taskId: string): string =>
  derivedId('subworkflow', parentWorkflowId, taskId);
