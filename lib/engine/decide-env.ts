/**
 * What a decide runs with besides the run itself: the time, the task types, and the randomness of
 * retry jitter. Its own module so the decider, the run context and the timeout rules can all name
 * it without importing each other.
 */
import type { TaskTypeRegistry } from './registry.ts';

export interface DecideEnv {
  now: number;
  registry: TaskTypeRegistry;
  random?: () => number;
}
