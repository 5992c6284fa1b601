/**
 * What a worker sends (TaskResult, reference/conductor.md §2.7), validated into a typed update.
 */

import { ValidationError } from '../model/errors.ts';
import { Issues } from '../validation/issues.ts';
import { ensureIsObject } from '../validation/shapes.ts';

export type ResultStatus = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'FAILED_WITH_TERMINAL_ERROR' | 'CANCELED';
export const RESULT_STATUSES: readonly ResultStatus[] = [
  'IN_PROGRESS',
  'COMPLETED',
  'FAILED',
  'FAILED_WITH_TERMINAL_ERROR',
  'CANCELED',
];

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

export function parseTaskResult(body: unknown): TaskResult {
  const raw = ensureIsObject(body, 'TaskResult');
  const issues = new Issues();
  const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
  if (blank(raw.workflowInstanceId)) issues.add('workflowInstanceId', 'Workflow Id cannot be null or empty');
  if (blank(raw.taskId)) issues.add('taskId', 'Task ID cannot be null or empty');
  if (raw.status === undefined || raw.status === null) issues.add('status', 'Status cannot be null');
  else if (!RESULT_STATUSES.includes(raw.status as ResultStatus)) {
    issues.add('status', `must be one of ${RESULT_STATUSES.join(', ')}`, String(raw.status));
  }
  if (raw.outputData != null && (typeof raw.outputData !== 'object' || Array.isArray(raw.outputData))) {
    issues.add('outputData', 'must be a JSON object');
  }
  if (
    raw.callbackAfterSeconds != null &&
    !(Number.isInteger(raw.callbackAfterSeconds) && (raw.callbackAfterSeconds as number) >= 0)
  ) {
    issues.add('callbackAfterSeconds', 'must be a non-negative integer', raw.callbackAfterSeconds);
  }
  if (raw.logs != null && !Array.isArray(raw.logs)) issues.add('logs', 'must be an array');
  if (raw.reasonForIncompletion != null && typeof raw.reasonForIncompletion !== 'string') {
    issues.add('reasonForIncompletion', 'must be a string');
  }
  issues.throwIfAny('Invalid TaskResult');
  return {
    workflowInstanceId: raw.workflowInstanceId as string,
    taskId: raw.taskId as string,
    status: raw.status as ResultStatus,
    outputData: raw.outputData as Record<string, unknown> | undefined,
    reasonForIncompletion: raw.reasonForIncompletion as string | undefined,
    callbackAfterSeconds: raw.callbackAfterSeconds as number | undefined,
    workerId: typeof raw.workerId === 'string' ? raw.workerId : undefined,
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
    extendLease: raw.extendLease === true,
    subWorkflowId: typeof raw.subWorkflowId === 'string' ? raw.subWorkflowId : undefined,
    externalOutputPayloadStoragePath:
      typeof raw.externalOutputPayloadStoragePath === 'string'
        ? raw.externalOutputPayloadStoragePath
        : undefined,
  };
}
