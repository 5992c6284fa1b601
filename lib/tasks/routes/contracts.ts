/**
 * Contract pieces the worker task routes share: the TaskResult body, a task's output body and the
 * long-poll limit.
 */

import { type BodyContract, objectBody, stringValue } from '../../http/contract.ts';
import type { RouteContext } from '../../http/router.ts';
import { objectOrEmpty } from '../../validation/shapes.ts';
import { RESULT_STATUSES } from '../task-result.ts';

/** Long polls wait at most this long (Conductor rejects more than 5 s with a 400). */
export const MAX_LONG_POLL_MS = 5000;

/**
 * A worker's TaskResult. Only the root shape is checked here: the field checks stay in
 * parseTaskResult, which reports every problem of the body in one answer with Conductor's wording.
 */
export const TASK_RESULT_BODY: BodyContract = {
  title: 'TaskResult',
  required: true,
  schema: objectBody('What a worker reports about a task (Conductor TaskResult)', {
    workflowInstanceId: { description: 'The run the task belongs to (required, non-empty string)' },
    taskId: { description: 'The task (required, non-empty string)' },
    status: { description: `One of ${RESULT_STATUSES.join(', ')} (required)` },
    outputData: { description: 'A JSON object merged into the task output' },
    callbackAfterSeconds: { description: 'Non-negative integer: re-offer an IN_PROGRESS task after this' },
    logs: { description: 'Log lines: strings or {log, createdTime}' },
    reasonForIncompletion: { description: 'Why the task failed (string)' },
    workerId: stringValue('The worker reporting'),
  }),
};

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
