/**
 * The work queue on SQS. A FIFO queue gets the message group and a fresh deduplication id per
 * send; a standard queue gets DelaySeconds (rounded up to whole seconds). Delays beyond SQS's 15
 * minutes are refused (lib/queue/ports.ts says where longer waits belong).
 */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { TransientError } from '../model/errors.ts';
import type { IdGenerator } from '../model/ids.ts';
import type { SendOptions, WorkQueue } from './ports.ts';
import { checkSend, type WorkQueueType } from './work-queues.ts';

export interface SqsQueueAddress {
  /** For error messages: the queue's name in lib/queue/work-queues.ts. */
  name: string;
  url: string;
  type: WorkQueueType;
}

export class SqsWorkQueue<M> implements WorkQueue<M> {
  constructor(
    private readonly client: SQSClient,
    private readonly queue: SqsQueueAddress,
    private readonly ids: IdGenerator,
    /** What a failed send was for, as the caller's error message says it. */
    private readonly what = `message for the '${queue.name}' queue`,
  ) {}

  async send(message: M, options: SendOptions = {}): Promise<void> {
    checkSend(this.queue.name, this.queue.type, options);
    const body = { QueueUrl: this.queue.url, MessageBody: JSON.stringify(message) };
    const command =
      this.queue.type === 'fifo'
        ? new SendMessageCommand({
            ...body,
            MessageGroupId: options.groupId,
            // Every send is its own message: a request made while the last one is handled must not
            // be swallowed by deduplication, or the change it announces would wait for a sweep.
            MessageDeduplicationId: this.ids.random(),
          })
        : new SendMessageCommand(
            options.delayMs === undefined
              ? body
              : { ...body, DelaySeconds: Math.ceil(options.delayMs / 1000) },
          );
    try {
      await this.client.send(command);
    } catch (error) {
      // Transient for the caller (503, retryable): what the message announces is already stored,
      // and the caller's retry, or a periodic job, asks again.
      throw new TransientError(`Could not queue the ${this.what}; retry the request`, { cause: error });
    }
  }
}
