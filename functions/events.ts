// Lambda entry for the 'events' route group (lib/events/routes.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('events');
