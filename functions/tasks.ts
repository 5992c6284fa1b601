// Lambda entry for the 'tasks' route group (lib/http/routes/tasks.ts).
import { routeGroupHandler } from './http-handler.ts';

export const handler = routeGroupHandler('tasks');
