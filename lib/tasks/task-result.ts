/**
 * What a worker sends (TaskResult, docs/conductor-compat.md §2.7): its body schema, the one shape
 * check, and the typed update read from a body that passed it.
 */

import { ValidationError } from '../model/errors.ts';
import { type BodyOf, bodySchema } from '../validation/body-schema.ts';

export const RESULT_STATUSES = [
  'IN_PROGRESS',
  'COMPLETED',
  'FAILED',
  'FAILED_WITH_TERMINAL_ERROR',
  'CANCELED',
] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/**
 * A worker's TaskResult as it arrives: the schema is the body's only shape check (the update
 * routes' body contract), worded as Conductor words these problems. Null is absent for the
 * optional fields, as Conductor reads them.
 */
export const TASK_RESULT = bodySchema(
  'TaskResult',
  {
    type: 'object',
    description: 'What a worker reports about a task (Conductor TaskResult)',
    required: ['workflowInstanceId', 'taskId', 'status'],
    properties: {
      workflowInstanceId: {
        type: 'string',
        pattern: '\\S',
        description: 'The run the task belongs to (required, non-empty string)',
      },
      taskId: { type: 'string', pattern: '\\S', description: 'The task (required, non-empty string)' },
      status: { enum: RESULT_STATUSES, description: `One of ${RESULT_STATUSES.join(', ')} (required)` },
      outputData: { type: ['object', 'null'], description: 'A JSON object merged into the task output' },
      callbackAfterSeconds: {
        type: ['integer', 'null'],
        minimum: 0,
        description: 'Non-negative integer: re-offer an IN_PROGRESS task after this',
      },
      logs: { type: ['array', 'null'], description: 'Log lines: strings or {log, createdTime}' },
      reasonForIncompletion: { type: ['string', 'null'], description: 'Why the task failed (string)' },
      workerId: { type: 'string', description: 'The worker reporting' },
    },
  },
  {
    messages: {
      workflowInstanceId: 'Workflow Id cannot be null or empty',
      taskId: 'Task ID cannot be null or empty',
      status: { required: 'Status cannot be null' },
      callbackAfterSeconds: 'must be a non-negative integer',
    },
    invalidValues: {
      workflowInstanceId: 'omit',
      taskId: 'omit',
      status: 'text',
      outputData: 'omit',
      logs: 'omit',
      reasonForIncompletion: 'omit',
    },
  },
);

/** A TaskResult body that passed its schema. */
export type TaskResultBody = BodyOf<typeof TASK_RESULT>;

export interface TaskResult {
  workflowInstanceId: string;
  taskId: string;
  status: ResultStatus;
  outputData?: Record<string, unknown>;
  reasonForIncompletion?: string;
  callbackAfterSeconds?: number;
  workerId?: string;
  logs?: { log: string; createdTime?: number }[];
  extendLease?: boolean;
  subWorkflowId?: string;
  externalOutputPayloadStoragePath?: string;
}

export function parseStatus(value: unknown, path = 'status'): ResultStatus {
  if (typeof value === 'string' && RESULT_STATUSES.includes(value as ResultStatus))
    return value as ResultStatus;
  throw new ValidationError(
    `Invalid task status '${String(value)}': must be one of ${RESULT_STATUSES.join(', ')}`,
    [
      {
        path,
        message: `must be one of ${RESULT_STATUSES.join(', ')}`,
        invalidValue: typeof value === 'string' ? value : undefined,
      },
    ],
  );
}

/** The update a checked TaskResult asks for; fields the schema leaves open are read leniently. */
export function taskResultOf(raw: TaskResultBody): TaskResult {
  const extra = raw as Record<string, unknown>;
  return {
    workflowInstanceId: raw.workflowInstanceId,
    taskId: raw.taskId,
    status: raw.status,
    outputData: raw.outputData ?? undefined,
    reasonForIncompletion: raw.reasonForIncompletion ?? undefined,
    callbackAfterSeconds: raw.callbackAfterSeconds ?? undefined,
    workerId: raw.workerId,
    logs: Array.isArray(raw.logs)
      ? raw.logs.flatMap((l) =>
          typeof l === 'string'
            ? [{ log: l }]
            : l && typeof l === 'object' && typeof (l as { log?: unknown }).log === 'string'
              ? [
                  {
                    log: (l as { log: string }).log,
                    createdTime: (l as { createdTime?: number }).createdTime,
                  },
                ]
              : [],
        )
      : undefined,
    extendLease: extra.extendLease === true,
    subWorkflowId: typeof extra.subWorkflowId === 'string' ? extra.subWorkflowId : undefined,
    externalOutputPayloadStoragePath:
      typeof extra.externalOutputPayloadStoragePath === 'string'
        ? extra.externalOutputPayloadStoragePath
        : undefined,
  };
}
