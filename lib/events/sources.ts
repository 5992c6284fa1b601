/**
 * Event sources on AWS (infra: the `eventSources` stack context), turned into events for the
 * handlers:
 * - `sqs:<queue>`: the queue is an event source of the event-sources function; each record is one
 *   event named `sqs:<queue>` (the queue's name from the record's ARN), its id the SQS message id,
 *   its payload the body (JSON parsed when it is JSON);
 * - `eventbridge:<bus>:<detail-type>`: a rule on the bus matching the detail type targets the same
 *   function with `{source: 'eventbridge', event, id, detail}` (the rule's input transformer names
 *   the event, since an EventBridge event does not carry its bus), its payload the detail.
 * A handler's event names its source; the stack creates what the configured sources need.
 */
import type { OutsideSources } from '../capability-contract.ts';
import type { OutsideSource } from '../deployment.ts';
import type { BatchRecord, SourceRecord } from '../jobs/batch.ts';
import type { EventMessage } from '../queue/work-queues.ts';
import { EVENT_HANDLING_GRANTS, type EventDeps, eventHandlers } from './consumer.ts';

/** A configured source, or why it is not one. */
export function parseEventSource(value: string): OutsideSource | string {
  const [type, ...rest] = value.split(':');
  if (type === 'sqs' && rest.length === 1 && rest[0]) return { type: 'sqs', queue: rest[0] };
  if (type === 'eventbridge' && rest.length >= 2 && rest[0] && rest.slice(1).join(':'))
    return { type: 'eventbridge', bus: rest[0], detailType: rest.slice(1).join(':') };
  return `Event source '${value}' is not sqs:<queue> or eventbridge:<bus>:<detail-type>`;
}

/** The event name handlers match for a source. */
export const eventNameOf = (source: OutsideSource): string =>
  source.type === 'sqs' ? `sqs:${source.queue}` : `eventbridge:${source.bus}:${source.detailType}`;

/** An SQS source's record as an event-message record (the body the events consumer decodes). */
export function eventRecordOf(record: SourceRecord): BatchRecord {
  const queue = record.eventSourceARN.split(':').pop() ?? '';
  const message: EventMessage = { messageId: record.messageId, event: `sqs:${queue}`, payload: record.body };
  return { messageId: record.messageId, body: JSON.stringify(message) };
}

/** What an EventBridge rule hands the event-sources function (its input transformer's template). */
export interface BridgeInput {
  source: 'eventbridge';
  event: string;
  id: string;
  detail: unknown;
}

export function isBridgeInput(value: unknown): value is BridgeInput {
  const input = value as Partial<BridgeInput> | null;
  return (
    typeof input === 'object' &&
    input !== null &&
    input.source === 'eventbridge' &&
    typeof input.event === 'string' &&
    typeof input.id === 'string'
  );
}

export const eventOfBridgeInput = (input: BridgeInput): EventMessage => ({
  messageId: input.id,
  event: input.event,
  payload: input.detail,
});

/** The description of the function fed by the configured event sources. */
export const EVENT_SOURCES_DESCRIPTION =
  'Conductor event-sources: turns SQS and EventBridge events into event handler runs';

/** The events capability's outside sources: they feed the event handlers as `conductor:` events do. */
export const EVENT_SOURCES: OutsideSources<EventMessage, EventDeps> = {
  context: 'eventSources',
  parse: parseEventSource,
  nameOf: eventNameOf,
  function: {
    name: 'event-sources',
    description: EVENT_SOURCES_DESCRIPTION,
    timeoutSeconds: 60,
    scriptWorker: true,
    grants: EVENT_HANDLING_GRANTS,
  },
  consumer: eventHandlers,
  recordOf: eventRecordOf,
  messageOf: (input) => (isBridgeInput(input) ? eventOfBridgeInput(input) : undefined),
};
