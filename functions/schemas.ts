// Lambda entry for the 'schemas' route group (lib/schemas/routes.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('schemas');
