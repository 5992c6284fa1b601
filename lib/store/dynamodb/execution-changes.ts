/**
 * The executions table's change stream (DynamoDB Streams, NEW_IMAGE) read as domain changes: a
 * run's item or a task row put (INSERT, MODIFY) or removed (REMOVE: a delete, or TTL expiry, whose
 * record carries the keys alone; a run's TTL expiry is marked `expired`). Log items and
 * idempotency claims are not searchable and are skipped. The item layout is the one of
 * execution-items.ts (key design: tables.ts).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { ExecutionChange } from '../../search/ports.ts';
import type { TaskFields } from '../../search/summaries.ts';
import { bodyOf, runFieldsOf, TASK_PREFIX, WORKFLOW_SK } from './execution-items.ts';

/** The part of a DynamoDB Streams record read here (aws-lambda's DynamoDBRecord has this shape). */
export interface ExecutionStreamRecord {
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE';
  dynamodb?: {
    Keys?: Record<string, unknown>;
    NewImage?: Record<string, unknown>;
    /** When the change was made, in epoch seconds (rounded down). */
    ApproximateCreationDateTime?: number;
  };
  /** Set on a removal by TTL: the DynamoDB service itself deleted the item. */
  userIdentity?: { type?: string; principalId?: string };
}

/** Who a TTL deletion's stream record names as its author (the AWS documentation's values). */
export const TTL_DELETER = { type: 'Service', principalId: 'dynamodb.amazonaws.com' } as const;

/** Whether a stream record is a removal by the table's TTL. */
export const removedByTtl = (record: ExecutionStreamRecord): boolean =>
  record.eventName === 'REMOVE' &&
  record.userIdentity?.type === TTL_DELETER.type &&
  record.userIdentity?.principalId === TTL_DELETER.principalId;

const plain = (image: Record<string, unknown>) => unmarshall(image as Record<string, AttributeValue>);

/** The change a stream record reports, or undefined for items search does not hold. */
export function executionChangeOf(record: ExecutionStreamRecord): ExecutionChange | undefined {
  const keys = record.dynamodb?.Keys;
  if (!keys) return undefined;
  const { pk, sk } = plain(keys);
  if (typeof pk !== 'string' || typeof sk !== 'string') return undefined;
  const image = record.eventName === 'REMOVE' ? undefined : record.dynamodb?.NewImage;
  const item = image ? plain(image) : undefined;
  if (sk === WORKFLOW_SK) {
    if (removedByTtl(record)) {
      const at = record.dynamodb?.ApproximateCreationDateTime;
      return {
        kind: 'workflow',
        workflowId: pk,
        expired: true,
        ...(typeof at === 'number' ? { removedAt: at * 1000 } : {}),
      };
    }
    return { kind: 'workflow', workflowId: pk, record: item ? runFieldsOf(item) : undefined };
  }
  if (sk.startsWith(TASK_PREFIX)) {
    const taskId = sk.slice(TASK_PREFIX.length);
    // A row's workflow task may be a snapshot (`wt`); its search document does not need it. Its
    // body may be deflated (`bodyZ`, the image's binary attribute): bodyOf inflates it.
    return { kind: 'task', taskId, record: item ? bodyOf<TaskFields>(item) : undefined };
  }
  return undefined;
}

export function executionChangesOf(records: readonly ExecutionStreamRecord[]): ExecutionChange[] {
  return records.flatMap((record) => {
    const change = executionChangeOf(record);
    return change ? [change] : [];
  });
}
