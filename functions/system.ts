// Lambda entry for the 'system' route group (lib/http/routes/system.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('system');
