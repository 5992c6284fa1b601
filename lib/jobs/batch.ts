/**
 * The generic batch loop of a consumer on AWS: decodes each message, groups the batch by the
 * consumer's key, handles the groups concurrently (a group's messages in order, or once when the
 * consumer coalesces) and reports the messages of the groups that failed (an SQS partial batch
 * response), so only those are delivered again and, past maxReceiveCount, land in the DLQ.
 * The record and response shapes are those of an SQS event, declared here so lib/jobs needs no AWS
 * package.
 */
import type { Logger } from '../log/logger.ts';
import type { Metrics } from '../log/metrics.ts';
import type { Consumer, JobDeps } from './types.ts';

export interface BatchRecord {
  messageId: string;
  body: string;
  /** SQS's count of deliveries of this message, this one included (absent locally). */
  attributes?: { ApproximateReceiveCount?: string };
}

/** A record of an SQS queue outside the service (an outside source): its queue's ARN says which. */
export interface SourceRecord extends BatchRecord {
  eventSourceARN: string;
}

/** Where a consumer's failures are counted (EMF on AWS): DeadLetterArrivals, MessagesDropped. */
export interface BatchMetrics {
  metrics: Metrics;
  queue: string;
  /** Deliveries after which SQS moves a message to the dead-letter queue. */
  maxReceiveCount: number;
}

export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

/** A consumer's view of its messages (see Consumer in types.ts). */
export interface BatchHandler<M> {
  name: string;
  decode(body: unknown): M | undefined;
  key(message: M): string | undefined;
  coalesce?(waiting: M, next: M): M;
  /** What a message delivered again (SQS's receive count above 1) stands for; itself when absent. */
  again?(message: M): M;
  handle(message: M): Promise<void>;
}

interface Decoded<M> {
  messageId: string;
  message: M;
}

export async function consumeBatch<M>(
  records: readonly BatchRecord[],
  handler: BatchHandler<M>,
  logger: Logger,
  counted?: BatchMetrics,
): Promise<BatchResponse> {
  const groups = new Map<string, Decoded<M>[]>();
  const receives = new Map<string, number>();
  for (const record of records)
    receives.set(record.messageId, Number(record.attributes?.ApproximateReceiveCount ?? 0));
  const single: Decoded<M>[][] = [];
  for (const record of records) {
    const message = decode(record.body, handler);
    if (message === undefined) {
      // Retrying cannot repair it, and on a FIFO queue it would hold up its message group meanwhile.
      logger.error('dropping a message its consumer cannot read', {
        consumer: handler.name,
        messageId: record.messageId,
        body: record.body.slice(0, 200),
      });
      counted?.metrics.record('MessagesDropped', 1, 'Count', { Queue: counted.queue });
      continue;
    }
    const key = handler.key(message);
    const again = (receives.get(record.messageId) ?? 0) > 1 ? handler.again?.(message) : undefined;
    const decoded = { messageId: record.messageId, message: again ?? message };
    if (key === undefined) {
      single.push([decoded]);
      continue;
    }
    const group = groups.get(key) ?? [];
    group.push(decoded);
    groups.set(key, group);
  }
  const batchItemFailures: BatchResponse['batchItemFailures'] = [];
  const runGroup = async (key: string | undefined, group: Decoded<M>[]): Promise<void> => {
    const coalesce = handler.coalesce?.bind(handler);
    const todo = coalesce ? [{ message: group.map((m) => m.message).reduce(coalesce) }] : group;
    for (const [index, { message }] of todo.entries()) {
      try {
        await handler.handle(message);
      } catch (error) {
        logger.error('handling failed; its messages go back to the queue', {
          consumer: handler.name,
          key,
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        });
        // The failed message and every later one of its group: a group stays in order.
        const failed = coalesce ? group : group.slice(index);
        for (const { messageId } of failed) {
          batchItemFailures.push({ itemIdentifier: messageId });
          // Its last delivery: SQS moves it to the dead-letter queue rather than deliver it again.
          if (counted && (receives.get(messageId) ?? 0) >= counted.maxReceiveCount) {
            counted.metrics.record('DeadLetterArrivals', 1, 'Count', { Queue: counted.queue });
          }
        }
        return;
      }
    }
  };
  await Promise.all([
    ...[...groups].map(([key, group]) => runGroup(key, group)),
    ...single.map((group) => runGroup(undefined, group)),
  ]);
  return { batchItemFailures };
}

function decode<M>(body: string, handler: BatchHandler<M>): M | undefined {
  try {
    return handler.decode(JSON.parse(body));
  } catch {
    return undefined;
  }
}

/** One batch of a consumer's queue, handled with the host's deps. */
export function runConsumer<M, P extends object = object>(
  consumer: Consumer<M, P>,
  records: readonly BatchRecord[],
  deps: JobDeps & P,
): Promise<BatchResponse> {
  return consumeBatch(
    records,
    { ...consumer, handle: (message) => consumer.handle(message, deps) },
    deps.logger,
    deps.metrics && {
      metrics: deps.metrics,
      queue: consumer.queue.name,
      maxReceiveCount: consumer.queue.maxReceiveCount,
    },
  );
}
