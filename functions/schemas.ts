// Lambda entry for the 'schemas' route group (lib/schemas/routes.ts): the schema registry only.
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { schemasCapability } from '../lib/schemas/capability.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = { capabilities: [schemasCapability], adapters: [dynamodb] };
export const handler = routeGroupHandler(schemasCapability, parts);
