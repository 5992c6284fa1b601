/**
 * The EventBridge adapter of EVENT sinks `eventbridge:<bus>[:<detail-type>]`
 * (lib/engine/event-sinks/sinks.ts): one PutEvents entry, Source `conductor`, DetailType the
 * sink's (default `conductor.event`),
 * Detail the payload as JSON. PutEvents answers 200 with per-entry failures, so a failed entry is
 * thrown here as the failure it is.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { EventMessage } from '../../queue/work-queues.ts';
import type { EventPublisher, Sink } from './sinks.ts';

export const EVENT_SOURCE = 'conductor';
export const DEFAULT_DETAIL_TYPE = 'conductor.event';

export class EventBridgePublisher implements EventPublisher {
  constructor(private readonly client: EventBridgeClient) {}

  async publish(sink: Exclude<Sink, { type: 'conductor' }>, message: EventMessage): Promise<void> {
    if (sink.type !== 'eventbridge') throw new Error(`EventBridgePublisher cannot publish to ${sink.event}`);
    const out = await this.client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: sink.bus,
            Source: EVENT_SOURCE,
            DetailType: sink.detailType ?? DEFAULT_DETAIL_TYPE,
            Detail: JSON.stringify(message.payload),
          },
        ],
      }),
    );
    const failed = out.Entries?.find((entry) => entry.ErrorCode);
    if ((out.FailedEntryCount ?? 0) > 0 || failed) {
      throw new Error(
        `EventBridge refused the event: ${failed?.ErrorCode ?? 'failed'} ${failed?.ErrorMessage ?? ''}`.trim(),
      );
    }
  }
}

/** A publisher over a client with the SDK's default region and credentials. */
export function defaultEventBridgePublisher(): EventBridgePublisher {
  return new EventBridgePublisher(new EventBridgeClient({}));
}
