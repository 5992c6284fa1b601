/**
 * The one place where errors become HTTP statuses and error bodies
 * ({status, message, instance, retryable}, plus validationErrors after a failed validation).
 * 4xx are logged as warnings; 5xx as errors, answered with a generic message that never carries internals.
 */
import type { Logger } from '../log/logger.ts';
import {
  ConflictError,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  TooManyRequestsError,
  TransientError,
  ValidationError,
} from '../model/errors.ts';
import { json } from './responses.ts';

const statusByType: ReadonlyArray<[new (...args: never[]) => Error, number]> = [
  [ValidationError, 400],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [MethodNotAllowedError, 405],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [TooManyRequestsError, 429],
  [TransientError, 503],
];

export interface ErrorBody {
  status: number;
  message: string;
  instance: string;
  retryable: boolean;
  validationErrors?: { path: string; message: string; invalidValue?: unknown }[];
}

export function statusOf(error: unknown): number {
  for (const [type, status] of statusByType) if (error instanceof type) return status;
  return 500;
}

export function errorResponse(error: unknown, instance: string, logger: Logger, where: string): Response {
  const status = statusOf(error);
  if (status >= 500 && status !== 503) {
    logger.error('request failed', { where, error: describe(error) });
    return json(
      { status, message: 'Internal server error', instance, retryable: false } satisfies ErrorBody,
      status,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  logger.warn('request rejected', { where, status, message });
  const body: ErrorBody = {
    status,
    message,
    instance,
    retryable: error instanceof Error && 'retryable' in error ? Boolean(error.retryable) : false,
  };
  if (error instanceof ValidationError && error.validationErrors.length > 0) {
    body.validationErrors = error.validationErrors;
  }
  return json(body, status);
}

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { value: String(error) };
}
