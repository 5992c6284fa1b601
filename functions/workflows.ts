// Lambda entry for the 'workflows' route group (lib/http/routes/workflows.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('workflows');
