/**
 * What a decide runs with besides the run itself: the time, the task types, and the randomness of
 * retry jitter. Its own module so the decider, the run context and the timeout rules can all name
 * it without importing each other.
 */

import type { TaskTypeRegistry } from './registry.ts';
import type { SchemaEnforcer } from './schema-enforcer.ts';

export interface DecideEnv {
  now: number;
  registry: TaskTypeRegistry;
  random?: () => number;
  /** Task inputs at schedule and the run's output at completion against their schemas (lib/schemas). */
  schemas?: SchemaEnforcer;
}
