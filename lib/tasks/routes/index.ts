/**
 * /api/tasks: the worker task API (docs/conductor-compat.md §1.1, search excepted), one file per
 * sub-resource in this folder. Polls answer 204 (single) or [] (batch) when nothing is ready;
 * updates answer the task id as text/plain.
 */
import type { RouteDef } from '../../http/router.ts';
import { storageLocationRoutes } from '../../workflows/routes/external-storage.ts';
import { pollRoutes } from './poll.ts';
import type { TaskRouteDeps } from './progress.ts';
import { queueRoutes } from './queues.ts';
import { signalRoutes } from './signal.ts';
import { taskLogRoutes } from './task-logs.ts';
import { updateRoutes } from './updates.ts';

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
