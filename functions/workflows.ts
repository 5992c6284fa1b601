// Lambda entry for the 'workflows' route group (lib/workflows/routes/index.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('workflows');
