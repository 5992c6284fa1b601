/**
 * What a job or consumer gets from a host's services (lib/jobs/types.ts JobDeps), the same on both
 * hosts: the engine's ports, plus what the capability that declares it provides.
 */

import type { JobDeps } from '../jobs/types.ts';
import type { Services } from './compose.ts';

/**
 * `work`'s deps include what its capability provides, when the services are made of it: a Lambda
 * function is built without the capability of work whose capability provides nothing (the timer,
 * the sweeper), and its entry includes the capability of work that needs one (functions/).
 */
export function jobDepsOf(services: Services, work?: { name: string }): JobDeps {
  const owner = work && services.capabilities.find((capability) => declares(capability, work.name));
  return {
    stores: services.stores,
    decisions: services.decisions,
    clock: services.clock,
    logger: services.logger,
    metrics: services.metrics,
    decide: (workflowId, taskIds) => services.engine.executor.decide(workflowId, taskIds),
    runSystemTask: (message) => services.engine.systemTasks.run(message),
    ...(owner && services.provided(owner)),
  };
}

/** Whether the capability declares the job or consumer of this name. */
function declares(capability: Services['capabilities'][number], name: string): boolean {
  return [...(capability.jobs ?? []), ...(capability.consumers ?? [])].some((work) => work.name === name);
}
