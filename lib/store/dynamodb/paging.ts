/**
 * Paged queries and batched reads and writes for the DynamoDB adapters. DynamoDB caps a page at
 * 1 MB, a BatchGetItem at 100 keys and a BatchWriteItem at 25 requests, and may hand back part of a
 * batch as unprocessed (throttling); these helpers page, chunk and retry so adapters need not.
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { TransientError } from '../../model/errors.ts';
import { translate } from './errors.ts';

export type Item = Record<string, unknown>;

/** BatchGetItem accepts at most 100 keys (DynamoDB limit). */
const GET_BATCH = 100;
/** BatchWriteItem accepts at most 25 put or delete requests (DynamoDB limit). */
const WRITE_BATCH = 25;
/** Unprocessed leftovers are retried with exponential backoff, as the AWS docs advise, this often. */
const BATCH_ATTEMPTS = 8;

const backoff = (attempt: number) => new Promise((r) => setTimeout(r, Math.min(1000, 10 * 2 ** attempt)));

/** Every item of a query, following LastEvaluatedKey to the end. */
export async function queryAll(client: DynamoDBDocumentClient, input: QueryCommandInput, operation: string) {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await client
      .send(new QueryCommand({ ...input, ExclusiveStartKey: start }))
      .catch((e: unknown) => translate(e, operation));
    items.push(...((page.Items ?? []) as Item[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every item of a scan, following LastEvaluatedKey to the end (admin reads only). */
export async function scanAll(client: DynamoDBDocumentClient, input: ScanCommandInput, operation: string) {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await client
      .send(new ScanCommand({ ...input, ExclusiveStartKey: start }))
      .catch((e: unknown) => translate(e, operation));
    items.push(...((page.Items ?? []) as Item[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * The items of the given keys that exist, in no particular order (consistent reads; with
 * `consistent` false eventually consistent ones, half the read units).
 */
export async function batchGet(
  client: DynamoDBDocumentClient,
  table: string,
  keys: readonly Item[],
  operation: string,
  consistent = true,
): Promise<Item[]> {
  const out: Item[] = [];
  for (let i = 0; i < keys.length; i += GET_BATCH) {
    let pending: Item[] = keys.slice(i, i + GET_BATCH);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= BATCH_ATTEMPTS) throw new TransientError(`Store kept throttling ${operation}`);
      if (attempt > 0) await backoff(attempt);
      const result = await client
        .send(
          new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: consistent } } }),
        )
        .catch((e: unknown) => translate(e, operation));
      out.push(...((result.Responses?.[table] ?? []) as Item[]));
      pending = (result.UnprocessedKeys?.[table]?.Keys ?? []) as Item[];
    }
  }
  return out;
}

/** Deletes the given keys (absent ones are no-ops). Keys must be unique within the call. */
export function batchDelete(
  client: DynamoDBDocumentClient,
  table: string,
  keys: readonly Item[],
  operation: string,
): Promise<void> {
  return batchWrite(
    client,
    table,
    keys.map((Key) => ({ DeleteRequest: { Key } })),
    operation,
  );
}

/** Puts the given items (replacing existing ones). Keys must be unique within the call. */
export function batchPut(
  client: DynamoDBDocumentClient,
  table: string,
  items: readonly Item[],
  operation: string,
): Promise<void> {
  return batchWrite(
    client,
    table,
    items.map((Item) => ({ PutRequest: { Item } })),
    operation,
  );
}

type WriteRequest = { DeleteRequest: { Key: Item } } | { PutRequest: { Item: Item } };

async function batchWrite(
  client: DynamoDBDocumentClient,
  table: string,
  requests: readonly WriteRequest[],
  operation: string,
): Promise<void> {
  for (let i = 0; i < requests.length; i += WRITE_BATCH) {
    let pending: WriteRequest[] = requests.slice(i, i + WRITE_BATCH);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= BATCH_ATTEMPTS) throw new TransientError(`Store kept throttling ${operation}`);
      if (attempt > 0) await backoff(attempt);
      const result = await client
        .send(new BatchWriteCommand({ RequestItems: { [table]: pending } }))
        .catch((e: unknown) => translate(e, operation));
      pending = (result.UnprocessedItems?.[table] ?? []) as WriteRequest[];
    }
  }
}
