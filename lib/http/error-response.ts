/**
 * The one place where errors become HTTP statuses and error bodies
 * ({status, message, instance, retryable}, plus validationErrors after a failed validation).
 * 4xx are logged as warnings; 5xx as errors, answered with a generic message that never carries internals.
 */
import type { Logger } from '../log/logger.ts';
import {
  ConflictError,
  ForbiddenError,
  HeadersTooLargeError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  QUOTE_LIMIT,
  TooManyRequestsError,
  TransientError,
  UnauthorizedError,
  UriTooLongError,
  ValidationError,
} from '../model/errors.ts';
import { json } from './responses.ts';

const statusByType: ReadonlyArray<[new (...args: never[]) => Error, number]> = [
  [ValidationError, 400],
  [UnauthorizedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [MethodNotAllowedError, 405],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [UriTooLongError, 414],
  [HeadersTooLargeError, 431],
  [TooManyRequestsError, 429],
  [TransientError, 503],
];

export interface ErrorBody {
  status: number;
  message: string;
  instance: string;
  retryable: boolean;
  validationErrors?: { path: string; message: string; invalidValue?: unknown }[];
  /** On a 401 for a token: EXPIRED_TOKEN or INVALID_TOKEN, which the SDKs answer with a new token. */
  error?: string;
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
  // Messages repeat client input; whatever a thrower forgot to quote() is cut here, so an error
  // body stays small whatever the request carried.
  const message = bounded(error instanceof Error ? error.message : String(error), MAX_MESSAGE);
  logger.warn('request rejected', { where: bounded(where, MAX_MESSAGE), status, message });
  const body: ErrorBody = {
    status,
    message,
    instance,
    retryable: error instanceof Error && 'retryable' in error ? Boolean(error.retryable) : false,
  };
  if (error instanceof UnauthorizedError && error.code) body.error = error.code;
  if (error instanceof ValidationError && error.validationErrors.length > 0) {
    body.validationErrors = error.validationErrors.slice(0, MAX_FIELD_ERRORS).map((e) => ({
      ...e,
      path: bounded(e.path, MAX_MESSAGE),
      message: bounded(e.message, MAX_MESSAGE),
      ...('invalidValue' in e ? { invalidValue: boundedValue(e.invalidValue) } : {}),
    }));
  }
  return json(body, status);
}

/** Longest message an error body carries. */
const MAX_MESSAGE = 1000;
/** Most field problems one error body lists. */
const MAX_FIELD_ERRORS = 100;

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`;
}

/** An invalid value as the error body repeats it: short scalars as they are, anything else cut. */
function boundedValue(value: unknown): unknown {
  if (typeof value === 'string') return bounded(value, QUOTE_LIMIT);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  return undefined;
}

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { value: String(error) };
}
