// Lambda entry for the 'metadata' route group (lib/metadata/routes/index.ts): definitions only.
import { metadataCapability } from '../lib/metadata/capability.ts';
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = { capabilities: [metadataCapability], adapters: [dynamodb] };
export const handler = routeGroupHandler(metadataCapability, parts);
