// Lambda entry for the 'applications' route group (lib/applications/routes/).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('applications');
