// Lambda entry for the 'metadata' route group (lib/http/routes/metadata.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('metadata');
