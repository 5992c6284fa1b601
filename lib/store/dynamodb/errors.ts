/**
 * Translates DynamoDB client failures into domain errors at the adapter edge. A failed condition is
 * the caller's business (the adapter decides what it means); throttling and service trouble are
 * transient and retryable.
 */
import { TransientError } from '../../model/errors.ts';

const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionConflictException',
]);

export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** Rethrows as a TransientError when the failure is worth retrying; otherwise rethrows as is. */
export function translate(error: unknown, operation: string): never {
  if (error instanceof Error) {
    const network =
      'code' in error && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(String(error.code));
    if (TRANSIENT.has(error.name) || network) {
      throw new TransientError(`Store temporarily unavailable during ${operation}`, { cause: error });
    }
  }
  throw error;
}
