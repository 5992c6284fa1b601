// Lambda entry for the 'workflows' route group (lib/workflows/routes/index.ts): runs the engine.
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb, eventSinks, openSearch, s3Payloads } from '../lib/runtime/aws-adapters.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';
import { workflowsCapability } from '../lib/workflows/capability.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = {
  ...withEngine(workflowsCapability),
  adapters: [dynamodb, s3Payloads, eventSinks, openSearch],
};
export const handler = routeGroupHandler(workflowsCapability, parts);
