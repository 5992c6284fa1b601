// Lambda entry for the 'messages' route group (lib/messages/routes.ts): a push reads the run
// (the workflows capability's store) and requests a decide; it runs no engine.
import { messagesCapability } from '../lib/messages/capability.ts';
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { workflowsCapability } from '../lib/workflows/capability.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = {
  capabilities: [workflowsCapability, messagesCapability],
  adapters: [dynamodb, sqsQueues],
};
export const handler = routeGroupHandler(messagesCapability, parts);
