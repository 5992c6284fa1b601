// Lambda entry for the 'messages' route group (lib/messages/routes.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('messages');
