// Lambda entry for the system-task consumer: carries out HTTP tasks off the decider
// (lib/jobs/system-tasks.ts).
import { systemTasks } from '../lib/jobs/system-tasks.ts';
import { consumerHandler, type FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { s3Payloads } from '../lib/runtime/aws-adapters/s3-payloads.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';

export const parts: FunctionParts = { ...withEngine(), adapters: [dynamodb, sqsQueues, s3Payloads] };
export const handler = consumerHandler(systemTasks, parts);
