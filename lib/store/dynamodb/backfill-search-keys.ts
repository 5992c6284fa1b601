/**
 * One-off backfill of the search index keys on run items written before those keys existed:
 * `startDay` (byStartDay, time-window search without a workflow type) and `correlationKey`
 * (byCorrelation, runs of a name sharing a correlation id). Such items are simply absent from the
 * index, so a search or correlated lookup would miss them. `npm run backfill:search-keys` runs it.
 * Each item is scanned once (only the key attributes) and set with an UpdateItem that writes an
 * attribute only if it is still absent and the run still exists: safe to run against a live table
 * (a commit replaces the item with both keys already set) and to run again.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, translate } from './errors.ts';
import { correlationKeyOf, startDayOf, WORKFLOW_SK } from './execution-items.ts';
import { documentClient } from './index.ts';
import type { Item } from './paging.ts';

export interface BackfillResult {
  /** Run items that lacked a key. */
  found: number;
  /** Of those, updated (the others were removed or rewritten meanwhile). */
  updated: number;
}

export async function backfillSearchKeys(
  client: DynamoDBDocumentClient,
  table: string,
): Promise<BackfillResult> {
  const result: BackfillResult = { found: 0, updated: 0 };
  let start: Item | undefined;
  do {
    const page = await client
      .send(
        new ScanCommand({
          TableName: table,
          FilterExpression:
            'sk = :wf AND (attribute_not_exists(startDay) OR (attribute_exists(correlationId) AND attribute_not_exists(correlationKey)))',
          ExpressionAttributeValues: { ':wf': WORKFLOW_SK },
          ProjectionExpression: 'pk, workflowName, createTime, correlationId',
          ExclusiveStartKey: start,
        }),
      )
      .catch((e: unknown) => translate(e, 'search keys backfill'));
    for (const item of (page.Items ?? []) as Item[]) {
      result.found++;
      if (await backfillOne(client, table, item)) result.updated++;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return result;
}

/** The backfill over a connection of its own (the command line's): a region, or any endpoint. */
export async function backfillSearchKeysAt(
  connection: { region: string; endpoint?: string },
  table: string,
): Promise<BackfillResult> {
  const client = new DynamoDBClient(connection);
  try {
    return await backfillSearchKeys(documentClient(client), table);
  } finally {
    client.destroy();
  }
}

async function backfillOne(client: DynamoDBDocumentClient, table: string, item: Item): Promise<boolean> {
  const workflowId = String(item.pk);
  const set = ['startDay = if_not_exists(startDay, :day)'];
  const values: Record<string, unknown> = { ':day': startDayOf(workflowId, Number(item.createTime)) };
  if (typeof item.correlationId === 'string' && item.correlationId !== '') {
    set.push('correlationKey = if_not_exists(correlationKey, :key)');
    values[':key'] = correlationKeyOf(String(item.workflowName), item.correlationId);
  }
  try {
    await client.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: workflowId, sk: WORKFLOW_SK },
        UpdateExpression: `SET ${set.join(', ')}`,
        // A run removed since the scan must not come back as a stub item.
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    return translate(error, 'search keys backfill');
  }
}
