/**
 * EVENT tasks' outside sinks on AWS: the `eventSinks` adapter of the functions that decide runs.
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import type { EventPublisher } from '../../engine/event-sinks/sinks.ts';
import { SqsEventPublisher } from '../../engine/event-sinks/sqs.ts';
import type { AwsAdapter } from '../aws.ts';

/**
 * The outside sinks EVENT tasks publish to (`sqs:`, `eventbridge:`), for the functions that decide
 * runs (they send to the events queue); the role limits which queues and buses (the eventSinks
 * context). EventBridge is loaded on the first publish to it.
 */
export const eventSinks: AwsAdapter = () => ({
  eventPublishers: {
    sqs: new SqsEventPublisher(new SQSClient({})),
    eventbridge: loadedOnFirstPublish(async () =>
      (await import('../../engine/event-sinks/eventbridge.ts')).defaultEventBridgePublisher(),
    ),
  },
});

/** A publisher made on its first publish (its SDK client is loaded then). */
function loadedOnFirstPublish(load: () => Promise<EventPublisher>): EventPublisher {
  let publisher: Promise<EventPublisher> | undefined;
  return {
    publish: async (sink, message) => {
      publisher ??= load();
      await (await publisher).publish(sink, message);
    },
  };
}
