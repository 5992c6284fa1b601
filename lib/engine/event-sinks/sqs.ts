/**
 * The SQS adapter of EVENT sinks `sqs:<queue>` (lib/engine/event-sinks/sinks.ts). The queue is a name (its
 * URL is looked up once, in the account and region of the credentials) or a full queue URL. The body
 * is the payload as JSON; the message id rides as a message attribute, and on a FIFO queue it is
 * the deduplication id (a task's second publish within five minutes is dropped by SQS) with the
 * workflow id as the message group.
 */
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { EventMessage } from '../../queue/work-queues.ts';
import type { EventPublisher, Sink } from './sinks.ts';

export class SqsEventPublisher implements EventPublisher {
  private readonly urls = new Map<string, Promise<string>>();

  constructor(private readonly client: SQSClient) {}

  async publish(sink: Exclude<Sink, { type: 'conductor' }>, message: EventMessage): Promise<void> {
    if (sink.type !== 'sqs') throw new Error(`SqsEventPublisher cannot publish to ${sink.event}`);
    const url = await this.urlOf(sink.queue);
    const payload = message.payload as { workflowInstanceId?: unknown } | undefined;
    const fifo = sink.queue.endsWith('.fifo');
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: JSON.stringify(message.payload),
        MessageAttributes: {
          messageId: { DataType: 'String', StringValue: message.messageId },
          event: { DataType: 'String', StringValue: message.event },
        },
        ...(fifo
          ? {
              MessageGroupId: String(payload?.workflowInstanceId ?? message.messageId),
              MessageDeduplicationId: message.messageId,
            }
          : {}),
      }),
    );
  }

  private urlOf(queue: string): Promise<string> {
    if (/^https?:\/\//.test(queue)) return Promise.resolve(queue);
    let url = this.urls.get(queue);
    if (!url) {
      url = this.client.send(new GetQueueUrlCommand({ QueueName: queue })).then((out) => {
        if (!out.QueueUrl) throw new Error(`SQS has no queue ${queue}`);
        return out.QueueUrl;
      });
      // A failed lookup is not remembered: the next publish asks again.
      url.catch(() => this.urls.delete(queue));
      this.urls.set(queue, url);
    }
    return url;
  }
}

/** A publisher over a client with the SDK's default region and credentials. */
export function defaultSqsEventPublisher(): SqsEventPublisher {
  return new SqsEventPublisher(new SQSClient({}));
}
