/**
 * SQS, as far as the stack uses it, speaking the AWS JSON 1.0 protocol the SDK sends, with the
 * queue settings of the template: FIFO message groups (a group's next message waits while one is
 * in flight) and deduplication ids (a repeat within five minutes is accepted and dropped), message
 * and queue delays, visibility timeouts, retention, the redrive policy (past maxReceiveCount a
 * message moves to the dead-letter queue when it would be received again) and the maximum message
 * size. Sends SQS refuses are refused the same way: a per-message delay on a FIFO queue, a delay
 * above 900 s, a body above the queue's maximum size, a FIFO send without a group or deduplication
 * id. Lambda event source mappings poll these queues (EventSourceMapping below).
 */
import { createHash, randomUUID } from 'node:crypto';
import { ClockTimer, type HarnessClock } from './clock.ts';
import { ACCOUNT, REGION, type ResolvedTemplate } from './template.ts';

const DEDUPLICATION_MS = 5 * 60_000;
/** SQS's default and largest MaximumMessageSize: 1 MiB (since August 2025; 256 KiB before). */
const DEFAULT_MAX_MESSAGE_BYTES = 1_048_576;

export class SqsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface QueuedMessage {
  messageId: string;
  body: string;
  groupId?: string;
  deduplicationId?: string;
  sequenceNumber: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  firstReceiveAt?: number;
  receiptHandle?: string;
}

export class SqsQueue {
  readonly messages: QueuedMessage[] = [];
  private readonly deduplicated = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private readonly timer: ClockTimer;
  /** Sends to accept and then lose (SqsQueue.loseNext). */
  private losing = 0;

  constructor(
    readonly name: string,
    readonly arn: string,
    readonly url: string,
    readonly fifo: boolean,
    readonly settings: {
      visibilityTimeoutS: number;
      delayS: number;
      maxMessageBytes: number;
      retentionS: number;
      contentBasedDeduplication: boolean;
      redrive?: { deadLetterTargetArn: string; maxReceiveCount: number };
    },
    private readonly clock: HarnessClock,
  ) {
    this.timer = new ClockTimer(clock, () => this.changed());
  }

  /** `listener` runs whenever a message may have become receivable. */
  onAvailable(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.timer.close();
  }

  send(entry: {
    body: string;
    delaySeconds?: number;
    groupId?: string;
    deduplicationId?: string;
  }): QueuedMessage {
    const { body } = entry;
    if (typeof body !== 'string' || body.length === 0) {
      throw new SqsError('MissingParameter', 'The request must contain the parameter MessageBody.');
    }
    if (Buffer.byteLength(body) > this.settings.maxMessageBytes) {
      throw new SqsError(
        'InvalidParameterValue',
        `One or more parameters are invalid. Reason: Message must be shorter than ${this.settings.maxMessageBytes} bytes.`,
      );
    }
    if (entry.delaySeconds !== undefined) {
      if (this.fifo) {
        throw new SqsError(
          'InvalidParameterValue',
          `Value ${entry.delaySeconds} for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.`,
        );
      }
      if (!Number.isInteger(entry.delaySeconds) || entry.delaySeconds < 0 || entry.delaySeconds > 900) {
        throw new SqsError(
          'InvalidParameterValue',
          `Value ${entry.delaySeconds} for parameter DelaySeconds is invalid. Reason: must be between 0 and 900, if provided.`,
        );
      }
    }
    const now = this.clock.now();
    if (this.fifo) {
      if (!entry.groupId)
        throw new SqsError('MissingParameter', 'The request must contain the parameter MessageGroupId.');
      const deduplicationId =
        entry.deduplicationId ??
        (this.settings.contentBasedDeduplication
          ? createHash('sha256').update(body).digest('hex')
          : undefined);
      if (!deduplicationId) {
        throw new SqsError(
          'InvalidParameterValue',
          'The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly',
        );
      }
      const seen = this.deduplicated.get(deduplicationId);
      if (seen !== undefined && now - seen < DEDUPLICATION_MS) {
        const earlier = this.messages.find((m) => m.deduplicationId === deduplicationId);
        if (earlier) return earlier;
        return { ...placeholder(body), deduplicationId };
      }
      this.deduplicated.set(deduplicationId, now);
      entry = { ...entry, deduplicationId };
    } else if (entry.groupId !== undefined || entry.deduplicationId !== undefined) {
      throw new SqsError(
        'InvalidParameterValue',
        'The request include parameter that is not valid for this queue type: MessageGroupId and MessageDeduplicationId are for FIFO queues.',
      );
    }
    const message: QueuedMessage = {
      messageId: randomUUID(),
      body,
      groupId: entry.groupId,
      deduplicationId: entry.deduplicationId,
      sequenceNumber: String(now * 1000 + this.messages.length).padStart(20, '0'),
      sentAt: now,
      visibleAt: now + 1000 * (entry.delaySeconds ?? this.settings.delayS),
      receiveCount: 0,
    };
    if (this.losing > 0) {
      this.losing -= 1;
      return message;
    }
    this.messages.push(message);
    this.changed();
    return message;
  }

  /** The next `count` sends are answered as accepted and then lost (a fault to recover from). */
  loseNext(count = 1): void {
    this.losing += count;
  }

  /**
   * Up to `max` receivable messages, made invisible for the visibility timeout. A message received
   * maxReceiveCount times already goes to `deadLetter` instead.
   */
  receive(max: number, deadLetter: (message: QueuedMessage) => void): QueuedMessage[] {
    const now = this.clock.now();
    this.expire(now);
    const busyGroups = new Set<string>();
    if (this.fifo) {
      for (const m of this.messages)
        if (m.receiveCount > 0 && m.visibleAt > now && m.groupId) busyGroups.add(m.groupId);
    }
    const taken: QueuedMessage[] = [];
    for (const message of [...this.messages]) {
      if (taken.length >= max) break;
      if (this.fifo && message.groupId && busyGroups.has(message.groupId)) continue;
      if (message.visibleAt > now) {
        // A FIFO group is delivered in order: a message not yet visible holds back the ones after it.
        if (this.fifo && message.groupId) busyGroups.add(message.groupId);
        continue;
      }
      const redrive = this.settings.redrive;
      if (redrive && message.receiveCount >= redrive.maxReceiveCount) {
        this.remove(message);
        deadLetter(message);
        continue;
      }
      message.receiveCount += 1;
      message.firstReceiveAt ??= now;
      message.visibleAt = now + this.settings.visibilityTimeoutS * 1000;
      message.receiptHandle = `${message.messageId}#${message.receiveCount}`;
      taken.push(message);
    }
    this.arm();
    return taken;
  }

  /** Deletes by receipt handle; an old handle (the message was received again since) is ignored. */
  delete(receiptHandle: string): void {
    const message = this.messages.find((m) => m.receiptHandle === receiptHandle);
    if (message) this.remove(message);
  }

  changeVisibility(receiptHandle: string, seconds: number): void {
    const message = this.messages.find((m) => m.receiptHandle === receiptHandle);
    if (!message)
      throw new SqsError('ReceiptHandleIsInvalid', `The receipt handle "${receiptHandle}" is not valid.`);
    if (seconds < 0 || seconds > 43_200)
      throw new SqsError('InvalidParameterValue', 'VisibilityTimeout must be 0 to 43200');
    message.visibleAt = this.clock.now() + seconds * 1000;
    this.changed();
  }

  /** A message arriving from another queue's redrive, with its receive history. */
  accept(message: QueuedMessage): void {
    this.messages.push({ ...message, visibleAt: this.clock.now(), receiptHandle: undefined });
    this.changed();
  }

  counts(): { visible: number; inFlight: number; delayed: number } {
    const now = this.clock.now();
    let visible = 0;
    let inFlight = 0;
    let delayed = 0;
    for (const m of this.messages) {
      if (m.visibleAt <= now) visible += 1;
      else if (m.receiveCount > 0) inFlight += 1;
      else delayed += 1;
    }
    return { visible, inFlight, delayed };
  }

  private remove(message: QueuedMessage): void {
    const at = this.messages.indexOf(message);
    if (at >= 0) this.messages.splice(at, 1);
    this.changed();
  }

  private expire(now: number): void {
    for (const m of [...this.messages]) if (now - m.sentAt > this.settings.retentionS * 1000) this.remove(m);
  }

  private changed(): void {
    this.arm();
    for (const listener of this.listeners) listener();
  }

  /** Wakes the listeners when the next invisible message becomes visible. */
  private arm(): void {
    const now = this.clock.now();
    let next: number | undefined;
    for (const m of this.messages)
      if (m.visibleAt > now && (next === undefined || m.visibleAt < next)) next = m.visibleAt;
    this.timer.set(next);
  }
}

function placeholder(body: string): QueuedMessage {
  return { messageId: randomUUID(), body, sequenceNumber: '0', sentAt: 0, visibleAt: 0, receiveCount: 0 };
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

export class Sqs {
  readonly queues: SqsQueue[] = [];

  constructor(template: ResolvedTemplate, clock: HarnessClock) {
    for (const id of template.ofType('AWS::SQS::Queue')) {
      const props = template.properties(id);
      const physical = template.physical.get(id);
      if (!physical) continue;
      const redrive = props.RedrivePolicy as
        | { deadLetterTargetArn: string; maxReceiveCount: number }
        | undefined;
      this.queues.push(
        new SqsQueue(
          physical.attributes.QueueName as string,
          physical.attributes.Arn as string,
          physical.ref,
          props.FifoQueue === true,
          {
            visibilityTimeoutS: Number(props.VisibilityTimeout ?? 30),
            delayS: Number(props.DelaySeconds ?? 0),
            maxMessageBytes: Number(props.MaximumMessageSize ?? DEFAULT_MAX_MESSAGE_BYTES),
            retentionS: Number(props.MessageRetentionPeriod ?? 345_600),
            contentBasedDeduplication: props.ContentBasedDeduplication === true,
            redrive: redrive ? { ...redrive, maxReceiveCount: Number(redrive.maxReceiveCount) } : undefined,
          },
          clock,
        ),
      );
    }
  }

  byArn(arn: string): SqsQueue {
    const queue = this.queues.find((q) => q.arn === arn);
    if (!queue)
      throw new SqsError(
        'AWS.SimpleQueueService.NonExistentQueue',
        `The specified queue does not exist: ${arn}`,
      );
    return queue;
  }

  byUrl(url: unknown): SqsQueue {
    const queue = this.queues.find((q) => q.url === url || q.name === String(url).split('/').pop());
    if (!queue) {
      throw new SqsError('AWS.SimpleQueueService.NonExistentQueue', 'The specified queue does not exist.');
    }
    return queue;
  }

  /** Moves `message` from `from` to its dead-letter queue. */
  deadLetter(from: SqsQueue, message: QueuedMessage): void {
    const target = from.settings.redrive?.deadLetterTargetArn;
    if (target) this.byArn(target).accept(message);
  }

  receive(queue: SqsQueue, max: number): QueuedMessage[] {
    return queue.receive(max, (message) => this.deadLetter(queue, message));
  }

  /**
   * The IAM action and queue ARNs of one JSON-protocol call: batch calls are authorized as their
   * single forms, GetQueueUrl on the queue it names.
   */
  authorization(operation: string, input: Record<string, unknown>): { action: string; resources: string[] } {
    const action = `sqs:${operation.replace(/Batch$/, '')}`;
    if (operation === 'GetQueueUrl' || operation === 'CreateQueue' || operation === 'ListQueues') {
      return { action, resources: [`arn:aws:sqs:${REGION}:${ACCOUNT}:${String(input.QueueName ?? '*')}`] };
    }
    let arn: string;
    try {
      arn = this.byUrl(input.QueueUrl).arn;
    } catch {
      arn = `arn:aws:sqs:${REGION}:${ACCOUNT}:${String(input.QueueUrl ?? '')
        .split('/')
        .pop()}`;
    }
    return { action, resources: [arn] };
  }

  /** One AWS JSON 1.0 call (`X-Amz-Target: AmazonSQS.<operation>`). */
  handle(operation: string, input: Record<string, unknown>): unknown {
    switch (operation) {
      case 'SendMessage': {
        const message = this.byUrl(input.QueueUrl).send(entryOf(input));
        return {
          MessageId: message.messageId,
          // Of the body sent (a deduplicated send answers the earlier message's id).
          MD5OfMessageBody: md5(String(input.MessageBody)),
          ...(message.groupId ? { SequenceNumber: message.sequenceNumber } : {}),
        };
      }
      case 'SendMessageBatch': {
        const queue = this.byUrl(input.QueueUrl);
        const entries = (input.Entries as Record<string, unknown>[]) ?? [];
        if (entries.length === 0 || entries.length > 10) {
          throw new SqsError(
            'AWS.SimpleQueueService.TooManyEntriesInBatchRequest',
            'A batch holds 1 to 10 entries.',
          );
        }
        const total = entries.reduce((sum, e) => sum + Buffer.byteLength(String(e.MessageBody ?? '')), 0);
        if (total > queue.settings.maxMessageBytes) {
          throw new SqsError(
            'AWS.SimpleQueueService.BatchRequestTooLong',
            'Batch requests cannot be longer than the maximum message size.',
          );
        }
        const Successful: unknown[] = [];
        const Failed: unknown[] = [];
        for (const entry of entries) {
          try {
            const message = queue.send(entryOf(entry));
            Successful.push({
              Id: entry.Id,
              MessageId: message.messageId,
              MD5OfMessageBody: md5(message.body),
            });
          } catch (error) {
            if (!(error instanceof SqsError)) throw error;
            Failed.push({ Id: entry.Id, SenderFault: true, Code: error.code, Message: error.message });
          }
        }
        return { Successful, Failed };
      }
      case 'ReceiveMessage': {
        const queue = this.byUrl(input.QueueUrl);
        const messages = this.receive(queue, Number(input.MaxNumberOfMessages ?? 1));
        return {
          Messages: messages.map((m) => ({
            MessageId: m.messageId,
            ReceiptHandle: m.receiptHandle,
            MD5OfBody: md5(m.body),
            Body: m.body,
            Attributes: { ApproximateReceiveCount: String(m.receiveCount), SentTimestamp: String(m.sentAt) },
          })),
        };
      }
      case 'DeleteMessage':
        this.byUrl(input.QueueUrl).delete(String(input.ReceiptHandle));
        return {};
      case 'ChangeMessageVisibility':
        this.byUrl(input.QueueUrl).changeVisibility(
          String(input.ReceiptHandle),
          Number(input.VisibilityTimeout),
        );
        return {};
      case 'GetQueueUrl':
        return { QueueUrl: this.byUrl(input.QueueName).url };
      case 'GetQueueAttributes': {
        const queue = this.byUrl(input.QueueUrl);
        const counts = queue.counts();
        return {
          Attributes: {
            QueueArn: queue.arn,
            ApproximateNumberOfMessages: String(counts.visible),
            ApproximateNumberOfMessagesNotVisible: String(counts.inFlight),
            ApproximateNumberOfMessagesDelayed: String(counts.delayed),
            VisibilityTimeout: String(queue.settings.visibilityTimeoutS),
          },
        };
      }
      default:
        throw new SqsError('InvalidAction', `The action ${operation} is not valid for this endpoint.`);
    }
  }

  close(): void {
    for (const queue of this.queues) queue.close();
  }
}

function entryOf(input: Record<string, unknown>) {
  return {
    body: input.MessageBody as string,
    delaySeconds: input.DelaySeconds === undefined ? undefined : Number(input.DelaySeconds),
    groupId: input.MessageGroupId as string | undefined,
    deduplicationId: input.MessageDeduplicationId as string | undefined,
  };
}
