// Lambda entry for the scheduler's one-minute tick (lib/scheduler/schedule-tick.ts): it sends the
// due fires and starts no run, so it runs no engine.
import { type FunctionParts, jobHandler } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { schedulerCapability } from '../lib/scheduler/capability.ts';
import { scheduleTick } from '../lib/scheduler/schedule-tick.ts';

export const parts: FunctionParts = { capabilities: [schedulerCapability], adapters: [dynamodb, sqsQueues] };
export const handler = jobHandler(scheduleTick, parts);
