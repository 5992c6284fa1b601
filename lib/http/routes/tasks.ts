/**
 * /api/tasks: the worker task API (docs/conductor-compat.md §1.1, search excepted), one file per
 * sub-resource under routes/tasks/. Polls answer 204 (single) or [] (batch) when nothing is ready;
 * updates answer the task id as text/plain.
 */
import type { RouteDef } from '../router.ts';
import { storageLocationRoutes } from './external-storage.ts';
import { pollRoutes } from './tasks/poll.ts';
import type { TaskRouteDeps } from './tasks/progress.ts';
import { queueRoutes } from './tasks/queues.ts';
import { signalRoutes } from './tasks/signal.ts';
import { taskLogRoutes } from './tasks/task-logs.ts';
import { updateRoutes } from './tasks/updates.ts';

/** The engine provides everything these routes need (lib/runtime/engine.ts). */
export function taskRoutes(engine: TaskRouteDeps): RouteDef[] {
  return [
    ...pollRoutes(engine.tasks),
    ...updateRoutes(engine),
    ...signalRoutes(engine),
    ...taskLogRoutes(engine.tasks),
    ...queueRoutes(engine.tasks),
    ...storageLocationRoutes('/api/tasks', engine.payloads),
  ];
}
