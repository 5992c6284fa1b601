// Lambda entry for the event handlers' consumer: conductor: events of EVENT tasks
// (lib/events/consumer.ts).
import { eventsCapability } from '../lib/events/capability.ts';
import { eventHandlers } from '../lib/events/consumer.ts';
import { consumerHandler, type FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb, s3Payloads } from '../lib/runtime/aws-adapters.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';

export const parts: FunctionParts = { ...withEngine(eventsCapability), adapters: [dynamodb, s3Payloads] };
export const handler = consumerHandler(eventHandlers, parts);
