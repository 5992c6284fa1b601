// Lambda entry for the configured event sources: SQS queues and EventBridge rules (lib/events/sources.ts).
import { eventSourceHandler } from '../lib/runtime/aws.ts';

export const handler = eventSourceHandler();
