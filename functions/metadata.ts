// Lambda entry for the 'metadata' route group (lib/metadata/routes/index.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('metadata');
