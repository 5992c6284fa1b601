/**
 * Contract pieces the worker task routes share: the TaskResult body, a task's output body and the
 * long-poll limit.
 */

import { type BodyContract, objectBody, stringValue } from '../../http/contract.ts';
import type { RouteContext } from '../../http/router.ts';
import { objectOrEmpty } from '../../validation/shapes.ts';
import { TASK_RESULT, type TaskResultBody } from '../task-result.ts';

/** Long polls wait at most this long (Conductor rejects more than 5 s with a 400). */
export const MAX_LONG_POLL_MS = 5000;

/** A worker's TaskResult: its schema (lib/tasks/task-result.ts) is the only check of the body. */
export const TASK_RESULT_BODY: BodyContract<TaskResultBody> = { ...TASK_RESULT, required: true };

/** The output a signal or by-reference update sets on a task; an empty body is {}. */
export const TASK_OUTPUT_BODY: BodyContract = {
  title: 'task output',
  schema: objectBody('The task output (any JSON object)'),
};

export const WORKER_ID_QUERY = { workerid: stringValue('The worker taking or reporting the task') };

/** The task output of a request that declares TASK_OUTPUT_BODY; an empty body is {}. */
export async function taskOutput(ctx: RouteContext): Promise<Record<string, unknown>> {
  return objectOrEmpty(await ctx.json(), TASK_OUTPUT_BODY.title);
}
