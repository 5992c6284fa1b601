// Lambda entry for the decider: consumes the SQS FIFO decision queue (lib/jobs/decision-consumers.ts).
import { decider } from '../lib/jobs/decision-consumers.ts';
import { consumerHandler, type FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { eventSinks } from '../lib/runtime/aws-adapters/event-sinks.ts';
import { s3Payloads } from '../lib/runtime/aws-adapters/s3-payloads.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';

export const parts: FunctionParts = {
  ...withEngine(),
  adapters: [dynamodb, sqsQueues, s3Payloads, eventSinks],
};
export const handler = consumerHandler(decider, parts);
