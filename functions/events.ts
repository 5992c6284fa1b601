// Lambda entry for the 'events' route group (lib/events/routes.ts): event handler definitions and
// their executions, and incoming events handed to the events queue; it runs no engine (the event
// handlers run in event-handlers.ts).
import { eventsCapability } from '../lib/events/capability.ts';
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = { capabilities: [eventsCapability], adapters: [dynamodb, sqsQueues] };
export const handler = routeGroupHandler(eventsCapability, parts);
