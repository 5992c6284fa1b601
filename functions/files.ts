// Lambda entry for the 'files' route group (lib/files/routes/index.ts): file records and URLs,
// authorized against their runs (the workflows capability's store); it runs no engine.
import { filesCapability } from '../lib/files/capability.ts';
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { s3Payloads } from '../lib/runtime/aws-adapters/s3-payloads.ts';
import { workflowsCapability } from '../lib/workflows/capability.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = {
  capabilities: [workflowsCapability, filesCapability],
  adapters: [dynamodb, s3Payloads],
};
export const handler = routeGroupHandler(filesCapability, parts);
