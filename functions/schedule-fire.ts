// Lambda entry for the schedule fire consumer: starts scheduled workflows (lib/scheduler/schedule-fire.ts).
import { consumerHandler, type FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { s3Payloads } from '../lib/runtime/aws-adapters/s3-payloads.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';
import { schedulerCapability } from '../lib/scheduler/capability.ts';
import { scheduleFire } from '../lib/scheduler/schedule-fire.ts';

export const parts: FunctionParts = {
  ...withEngine(schedulerCapability),
  adapters: [dynamodb, sqsQueues, s3Payloads],
};
export const handler = consumerHandler(scheduleFire, parts);
