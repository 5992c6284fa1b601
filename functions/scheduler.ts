// Lambda entry for the 'scheduler' route group (lib/scheduler/capability.ts): saves check start
// requests and registered workflows, so it runs the engine.
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';
import { schedulerCapability } from '../lib/scheduler/capability.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = { ...withEngine(schedulerCapability), adapters: [dynamodb, sqsQueues] };
export const handler = routeGroupHandler(schedulerCapability, parts);
