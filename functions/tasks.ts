// Lambda entry for the 'tasks' route group (lib/tasks/routes/index.ts): runs the engine.
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb, openSearch, s3Payloads } from '../lib/runtime/aws-adapters.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';
import { tasksCapability } from '../lib/tasks/capability.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = {
  ...withEngine(tasksCapability),
  adapters: [dynamodb, s3Payloads, openSearch],
};
export const handler = routeGroupHandler(tasksCapability, parts);
