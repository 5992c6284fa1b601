/**
 * What a job or consumer gets from a host's services (lib/jobs/types.ts JobDeps), the same on both
 * hosts: the engine's ports, plus what the capability that declares it provides.
 */

import { ownerOf } from '../capabilities.ts';
import type { JobDeps } from '../jobs/types.ts';
import type { Services } from './services.ts';

export function jobDepsOf(services: Services, work?: { name: string }): JobDeps {
  return {
    stores: services.stores,
    decisions: services.decisions,
    clock: services.clock,
    logger: services.logger,
    metrics: services.metrics,
    decide: (workflowId, taskIds) => services.engine.executor.decide(workflowId, taskIds),
    runSystemTask: (message) => services.engine.systemTasks.run(message),
    ...(work && services.provided(ownerOf(work))),
  };
}
