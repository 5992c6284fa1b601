// EVENT sinks: what a `sink` names (docs/conductor-compat.md §5.20), and the SQS and EventBridge
// adapters over fake clients at the SDK edge (what they send, and that a refusal is an error).
import type { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetQueueUrlCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { EventBridgePublisher } from '../../lib/engine/event-sinks/eventbridge.ts';
import { parseSink, publish } from '../../lib/engine/event-sinks/sinks.ts';
import { SqsEventPublisher } from '../../lib/engine/event-sinks/sqs.ts';
import { parseEventSource } from '../../lib/events/sources.ts';

const message = { messageId: 'task-1', event: 'sqs:orders', payload: { workflowInstanceId: 'wf-1', n: 1 } };

/** Records every command and answers with what `answer` gives. */
function fakeClient(answer: (command: unknown) => unknown) {
  const sent: unknown[] = [];
  return {
    sent,
    client: {
      send: async (command: unknown) => {
        sent.push(command);
        return answer(command);
      },
    },
  };
}

describe('EVENT sinks', () => {
  it('name the event handlers match, as Conductor does', () => {
    expect(parseSink('conductor', 'wf', 'ref')).toEqual({ type: 'conductor', event: 'conductor:wf:ref' });
    expect(parseSink('conductor:done', 'wf', 'ref')).toEqual({
      type: 'conductor',
      event: 'conductor:wf:done',
    });
    expect(parseSink('sqs:orders', 'wf', 'ref')).toEqual({
      type: 'sqs',
      queue: 'orders',
      event: 'sqs:orders',
    });
    expect(parseSink('eventbridge:bus:Placed', 'wf', 'ref')).toEqual({
      type: 'eventbridge',
      bus: 'bus',
      detailType: 'Placed',
      event: 'eventbridge:bus:Placed',
    });
    for (const bad of ['', 'sqs:', 'eventbridge::x', 'kafka:t', 42])
      expect(typeof parseSink(bad, 'wf', 'r')).toBe('string');
  });

  it('refuse an outside sink this host has no publisher for, naming the property', async () => {
    const sink = parseSink('sqs:orders', 'wf', 'r');
    if (typeof sink === 'string') throw new Error(sink);
    await expect(publish({ conductor: { send: async () => {} } }, sink, message)).rejects.toThrow(
      /cannot be reached.*service\.events\.aws-sinks\.enabled/,
    );
  });

  it('parse configured sources', () => {
    expect(parseEventSource('sqs:orders')).toEqual({ type: 'sqs', queue: 'orders' });
    expect(parseEventSource('eventbridge:default:Order Placed')).toEqual({
      type: 'eventbridge',
      bus: 'default',
      detailType: 'Order Placed',
    });
    for (const bad of ['sqs:', 'sqs:a:b', 'eventbridge:bus', 'kafka:x'])
      expect(typeof parseEventSource(bad)).toBe('string');
  });
});

describe('SqsEventPublisher', () => {
  it('looks the queue URL up once and sends the payload with the message id', async () => {
    const fake = fakeClient((c) =>
      c instanceof GetQueueUrlCommand ? { QueueUrl: 'https://sqs/1/orders' } : {},
    );
    const publisher = new SqsEventPublisher(fake.client as unknown as SQSClient);
    await publisher.publish({ type: 'sqs', queue: 'orders', event: 'sqs:orders' }, message);
    await publisher.publish({ type: 'sqs', queue: 'orders', event: 'sqs:orders' }, message);
    const sends = fake.sent.filter((c) => c instanceof SendMessageCommand) as SendMessageCommand[];
    expect(fake.sent.filter((c) => c instanceof GetQueueUrlCommand)).toHaveLength(1);
    expect(sends[0]?.input).toMatchObject({
      QueueUrl: 'https://sqs/1/orders',
      MessageBody: JSON.stringify(message.payload),
      MessageAttributes: { messageId: { DataType: 'String', StringValue: 'task-1' } },
    });
    expect(sends[0]?.input.MessageGroupId).toBeUndefined();
  });

  it('deduplicates by message id and groups by run on a FIFO queue given by URL', async () => {
    const fake = fakeClient(() => ({}));
    const url = 'https://sqs.eu-west-1.amazonaws.com/1/orders.fifo';
    await new SqsEventPublisher(fake.client as unknown as SQSClient).publish(
      { type: 'sqs', queue: url, event: `sqs:${url}` },
      message,
    );
    expect((fake.sent[0] as SendMessageCommand).input).toMatchObject({
      QueueUrl: url,
      MessageGroupId: 'wf-1',
      MessageDeduplicationId: 'task-1',
    });
  });

  it('fails when the queue does not exist, and asks again next time', async () => {
    let exists = false;
    const fake = fakeClient((c) => {
      if (c instanceof GetQueueUrlCommand && !exists)
        throw new Error('AWS.SimpleQueueService.NonExistentQueue');
      return c instanceof GetQueueUrlCommand ? { QueueUrl: 'https://sqs/1/late' } : {};
    });
    const publisher = new SqsEventPublisher(fake.client as unknown as SQSClient);
    const sink = { type: 'sqs' as const, queue: 'late', event: 'sqs:late' };
    await expect(publisher.publish(sink, message)).rejects.toThrow(/NonExistentQueue/);
    exists = true;
    await publisher.publish(sink, message);
    expect(fake.sent.filter((c) => c instanceof SendMessageCommand)).toHaveLength(1);
  });
});

describe('EventBridgePublisher', () => {
  it('puts one event on the bus with the detail type and the payload as detail', async () => {
    const fake = fakeClient(() => ({ FailedEntryCount: 0, Entries: [{ EventId: 'e1' }] }));
    await new EventBridgePublisher(fake.client as unknown as EventBridgeClient).publish(
      { type: 'eventbridge', bus: 'commerce', detailType: 'Placed', event: 'eventbridge:commerce:Placed' },
      message,
    );
    expect((fake.sent[0] as PutEventsCommand).input.Entries).toEqual([
      {
        EventBusName: 'commerce',
        Source: 'conductor',
        DetailType: 'Placed',
        Detail: JSON.stringify(message.payload),
      },
    ]);
  });

  it('throws for an entry EventBridge refused in a 200 answer', async () => {
    const fake = fakeClient(() => ({
      FailedEntryCount: 1,
      Entries: [{ ErrorCode: 'AccessDeniedException', ErrorMessage: 'not allowed' }],
    }));
    await expect(
      new EventBridgePublisher(fake.client as unknown as EventBridgeClient).publish(
        { type: 'eventbridge', bus: 'audit', event: 'eventbridge:audit' },
        message,
      ),
    ).rejects.toThrow('EventBridge refused the event: AccessDeniedException not allowed');
  });
});
