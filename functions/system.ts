// Lambda entry for the 'system' route group (lib/system/routes.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('system');
