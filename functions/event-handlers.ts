// Lambda entry for the event handlers' consumer: conductor: events of EVENT tasks
// (lib/events/consumer.ts).
import { eventsCapability } from '../lib/events/capability.ts';
import { eventHandlers } from '../lib/events/consumer.ts';
import { consumerHandler, type FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { s3Payloads } from '../lib/runtime/aws-adapters/s3-payloads.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';

export const parts: FunctionParts = {
  ...withEngine(eventsCapability),
  adapters: [dynamodb, sqsQueues, s3Payloads],
};
export const handler = consumerHandler(eventHandlers, parts);
