// Lambda entry for the 'applications' route group (lib/applications/routes/): applications,
// access keys and roles, in their own table.
import { applicationsCapability } from '../lib/applications/capability.ts';
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = { capabilities: [applicationsCapability], adapters: [dynamodb] };
export const handler = routeGroupHandler(applicationsCapability, parts);
