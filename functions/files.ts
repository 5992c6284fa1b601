// Lambda entry for the 'files' route group (lib/files/routes/index.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('files');
