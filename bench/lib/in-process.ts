/**
 * The local server in the benchmark's own process, on the in-memory store (or the stores given),
 * with warnings shown (a failed decide, tried again a second later, is part of the cost).
 */
import { configOf } from '../../lib/config/load.ts';
import { createLogger } from '../../lib/log/logger.ts';
import { type LocalServer, startLocalServer } from '../../lib/runtime/local.ts';
import type { ServiceStores } from '../../lib/runtime/store-bundle.ts';
import type { TaskResult } from '../../lib/tasks/task-result.ts';

export function startInProcessServer(stores?: ServiceStores): Promise<LocalServer> {
  return startLocalServer(
    configOf({ 'service.store': 'memory', 'service.server.port': 0, 'service.instance-id': 'bench' }),
    { logger: createLogger({ level: 'warn', format: 'text' }), stores },
  );
}

/** A worker's COMPLETED result for a polled task, as the benchmarks' workers answer. */
export const completedResult = (task: { workflowInstanceId: string; taskId: string }): TaskResult => ({
  workflowInstanceId: task.workflowInstanceId,
  taskId: task.taskId,
  status: 'COMPLETED',
  outputData: { ref: 1 },
});
