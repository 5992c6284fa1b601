/**
 * Task domains (docs/conductor-compat.md §4.2 step 8): `taskToDomain` maps a task name (or `*` for
 * all) to a domain or a comma list of them. From a list, the first domain with a worker that
 * polled in the last 10 seconds wins; with none active, the last listed. `NO_DOMAIN` means the
 * plain queue. System tasks never get a domain.
 */
import type { PollDataStore } from '../store/ports.ts';
import { queueName } from './queues.ts';

export const NO_DOMAIN = 'NO_DOMAIN';
const ACTIVE_WITHIN_MS = 10_000;

/** The domains configured for a task, in order; empty when none applies. */
export function domainCandidates(
  taskToDomain: Record<string, string> | undefined,
  taskName: string,
): string[] {
  const raw = taskToDomain?.[taskName] ?? taskToDomain?.['*'];
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '');
}

/** Without poll data (inside the pure decider): the last listed domain. */
export function fallbackDomain(candidates: readonly string[]): string | undefined {
  const last = candidates.at(-1);
  return last === undefined || last === NO_DOMAIN ? undefined : last;
}

/** With poll data (in the executor): the first domain whose queue a worker polled lately. */
export async function activeDomain(
  candidates: readonly string[],
  taskType: string,
  pollData: PollDataStore,
  now: number,
): Promise<string | undefined> {
  for (const domain of candidates) {
    const name = domain === NO_DOMAIN ? taskType : queueName(taskType, domain);
    const polls = await pollData.list(name);
    const active = polls.some((p) => p.queueName === name && now - p.lastPollTime <= ACTIVE_WITHIN_MS);
    if (active) return domain === NO_DOMAIN ? undefined : domain;
  }
  return fallbackDomain(candidates);
}
