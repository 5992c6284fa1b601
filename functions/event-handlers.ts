// Lambda entry for the event handlers' consumer: conductor: events of EVENT tasks
// (lib/jobs/event-handlers.ts).
import { consumerHandler } from '../lib/runtime/aws.ts';

export const handler = consumerHandler('event-handlers');
