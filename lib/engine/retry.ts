/**
 * Retry delay maths (docs/conductor-compat.md §4.3). `n` is the failed attempt's retryCount (0 first).
 */
import type { TaskDef } from '../model/definitions.ts';

const MAX_DELAY_SECONDS = 2_147_483_647;

export function retryDelaySeconds(def: TaskDef, n: number, random: () => number = Math.random): number {
  const base = def.retryDelaySeconds ?? 60;
  let delay: number;
  switch (def.retryLogic) {
    case 'EXPONENTIAL_BACKOFF':
      delay = base * 2 ** n;
      break;
    case 'LINEAR_BACKOFF':
      delay = base * (def.backoffScaleFactor ?? 1) * (n + 1);
      break;
    default:
      delay = base;
  }
  delay = Math.min(delay, MAX_DELAY_SECONDS);
  if ((def.maxRetryDelaySeconds ?? 0) > 0) delay = Math.min(delay, def.maxRetryDelaySeconds as number);
  const jitterMs = def.backoffJitterMs ?? 0;
  return jitterMs > 0 ? delay + Math.floor(random() * (jitterMs + 1)) / 1000 : delay;
}
