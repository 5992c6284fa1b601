// Lambda entry for the 'workflows' route group (lib/workflows/routes/index.ts): runs the engine.
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { eventSinks } from '../lib/runtime/aws-adapters/event-sinks.ts';
import { openSearch } from '../lib/runtime/aws-adapters/opensearch.ts';
import { s3Payloads } from '../lib/runtime/aws-adapters/s3-payloads.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';
import { workflowsCapability } from '../lib/workflows/capability.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = {
  ...withEngine(workflowsCapability),
  adapters: [dynamodb, sqsQueues, s3Payloads, eventSinks, openSearch],
};
export const handler = routeGroupHandler(workflowsCapability, parts);
