// Lambda entry for the events capability's outside sources (lib/events/sources.ts EVENT_SOURCES).
import { outsideSourceHandler } from '../lib/runtime/aws.ts';

export const handler = outsideSourceHandler('events');
