/**
 * Where an EVENT task publishes (docs/conductor-compat.md §5.20): its `sink` names a queue type and a
 * queue. `conductor` publishes to `conductor:<workflowName>:<taskRef>` and `conductor:<name>` to
 * `conductor:<workflowName>:<name>`, the event names handlers match; those messages reach the event
 * handlers of this service (in process locally, through the `events` SQS queue on AWS).
 * `sqs:<queue>` (a name or a queue URL) and `eventbridge:<bus>[:<detail-type>]` leave the service
 * through their adapters (eventbridge.ts, sqs.ts beside this file). Other queue types (kafka, amqp, nats) are
 * not available here: such a task fails saying so.
 */
import type { WorkQueue } from '../../queue/ports.ts';
import type { EventMessage } from '../../queue/work-queues.ts';

export type Sink =
  | { type: 'conductor'; event: string }
  | { type: 'sqs'; queue: string; event: string }
  | { type: 'eventbridge'; bus: string; detailType?: string; event: string };

/** The adapter of one outside queue type (SQS, EventBridge). */
export interface EventPublisher {
  publish(sink: Exclude<Sink, { type: 'conductor' }>, message: EventMessage): Promise<void>;
}

/** The sinks one host can reach; an absent publisher fails the tasks that name its type. */
export interface EventSinks {
  conductor: WorkQueue<EventMessage>;
  sqs?: EventPublisher;
  eventbridge?: EventPublisher;
}

/** The sink a task's resolved `sink` names, or why it names none. */
export function parseSink(value: unknown, workflowName: string, taskRef: string): Sink | string {
  if (typeof value !== 'string' || value.trim() === '') return 'EVENT task has no sink';
  const sink = value.trim();
  if (sink === 'conductor') return { type: 'conductor', event: `conductor:${workflowName}:${taskRef}` };
  const colon = sink.indexOf(':');
  const type = colon < 0 ? sink : sink.slice(0, colon);
  const rest = colon < 0 ? '' : sink.slice(colon + 1);
  if (rest === '') return `Sink '${sink}' names no queue: use <type>:<queue>, e.g. sqs:orders`;
  switch (type) {
    case 'conductor':
      return { type: 'conductor', event: `conductor:${workflowName}:${rest}` };
    case 'sqs':
      return { type: 'sqs', queue: rest, event: sink };
    case 'eventbridge': {
      const [bus = '', detailType] = rest.split(':', 2);
      if (bus === '') return `Sink '${sink}' names no event bus: use eventbridge:<bus>[:<detail-type>]`;
      return { type: 'eventbridge', bus, ...(detailType ? { detailType } : {}), event: sink };
    }
    default:
      return `Sink type '${type}' is not available in this service (conductor, sqs and eventbridge are)`;
  }
}

/** Publishes one message to its sink; throws, with a reason worth showing, when it cannot. */
export async function publish(sinks: EventSinks, sink: Sink, message: EventMessage): Promise<void> {
  if (sink.type === 'conductor') {
    await sinks.conductor.send(message);
    return;
  }
  const publisher = sinks[sink.type];
  if (!publisher) {
    throw new Error(
      `Sink ${sink.event} cannot be reached: this service publishes to ${sink.type} only on AWS or with service.events.aws-sinks.enabled`,
    );
  }
  await publisher.publish(sink, message);
}
