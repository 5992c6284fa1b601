/**
 * Translates DynamoDB client failures into domain errors at the adapter edge. A failed condition is
 * the caller's business (the adapter decides what it means); throttling and service trouble are
 * transient and retryable.
 */
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
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

/**
 * A query on an index the table lacks: a table created before the index existed (a local data
 * directory from an earlier version: dynalite cannot add an index to an existing table).
 */
export function isMissingIndex(error: unknown, index = 'byCorrelation'): boolean {
  return (
    error instanceof Error &&
    error.name === 'ValidationException' &&
    /index/i.test(error.message) &&
    error.message.includes(index)
  );
}

/**
 * Creates an item unless one with its key exists (a conditional PutItem on `attribute_not_exists(pk)`):
 * true when this call created it, false when it was there already. Other failures are translated.
 */
export async function putIfAbsent(
  client: DynamoDBDocumentClient,
  table: string,
  item: Record<string, unknown>,
  operation: string,
): Promise<boolean> {
  try {
    await client.send(
      new PutCommand({ TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    translate(error, operation);
  }
}

/**
 * Puts an item only over the revision the writer read (`rev` = `expectedRev`), or only where none
 * exists with `expectedRev` undefined: false when another writer got there first.
 */
export async function putIfRevision(
  client: DynamoDBDocumentClient,
  table: string,
  item: Record<string, unknown>,
  expectedRev: number | undefined,
  operation: string,
): Promise<boolean> {
  if (expectedRev === undefined) return putIfAbsent(client, table, item, operation);
  try {
    await client.send(
      new PutCommand({
        TableName: table,
        Item: item,
        ConditionExpression: 'rev = :expected',
        ExpressionAttributeValues: { ':expected': expectedRev },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    translate(error, operation);
  }
}
