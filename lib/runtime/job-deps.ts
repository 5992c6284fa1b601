/** What background work gets from a host's services (lib/jobs/types.ts JobDeps), the same on both hosts. */

import { eventProcessorOf } from '../events/capability.ts';
import type { JobDeps } from '../jobs/types.ts';
import { dispatcherOf } from '../scheduler/capability.ts';
import type { Services } from './services.ts';

export function jobDepsOf(services: Services): JobDeps {
  const events = eventProcessorOf(services);
  return {
    stores: services.stores,
    decisions: services.decisions,
    clock: services.clock,
    logger: services.logger,
    metrics: services.metrics,
    decide: (workflowId, taskIds) => services.engine.executor.decide(workflowId, taskIds),
    scheduler: dispatcherOf(services),
    runSystemTask: (message) => services.engine.systemTasks.run(message),
    handleEvent: async (message) => void (await events.handle(message)),
  };
}
