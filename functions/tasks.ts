// Lambda entry for the 'tasks' route group (lib/tasks/routes/index.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('tasks');
