// Lambda entry for the 'scheduler' route group (lib/scheduler/capability.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('scheduler');
