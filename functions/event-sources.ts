// Lambda entry for the events capability's outside sources (lib/events/sources.ts EVENT_SOURCES).
import { eventsCapability } from '../lib/events/capability.ts';
import { type FunctionParts, outsideSourceHandler } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { s3Payloads } from '../lib/runtime/aws-adapters/s3-payloads.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';

export const parts: FunctionParts = {
  ...withEngine(eventsCapability),
  adapters: [dynamodb, sqsQueues, s3Payloads],
};
export const handler = outsideSourceHandler(eventsCapability, parts);
