// Lambda entry for the 'tasks' route group (lib/tasks/routes/index.ts): runs the engine.
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { openSearch } from '../lib/runtime/aws-adapters/opensearch.ts';
import { s3Payloads } from '../lib/runtime/aws-adapters/s3-payloads.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';
import { tasksCapability } from '../lib/tasks/capability.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = {
  ...withEngine(tasksCapability),
  adapters: [dynamodb, sqsQueues, s3Payloads, openSearch],
};
export const handler = routeGroupHandler(tasksCapability, parts);
