/**
 * The payload sweep: reclaims large payloads nothing refers to any more, once a day.
 *
 * Why a sweep, not a delete when a run goes: payloads are shared. A payload the service
 * externalizes is named by its content's hash (keys.ts), so two runs with the same large input,
 * a task output templated whole into the next task's input, every retry of a task, and a run
 * started with the path of an earlier run's payload all point at one object. Removing a run
 * (DELETE /api/workflow/{id}/remove, or its retention expiring) cannot tell whether another run
 * still points at its payloads without reading every other run, so it leaves them, and the sweep
 * reads everything once instead (mark and sweep, as a garbage collector would):
 *
 * 1. List the payloads last written more than `graceMs` ago: the candidates.
 * 2. Read every stored text that may name a payload (every capability's payloadReferences: the
 *    runs and task rows, the schedules' start requests), and drop each candidate it names.
 * 3. Reclaim the rest (PayloadStore.reclaim), each unless it was written again since step 1.
 *
 * Why this is safe with runs being written meanwhile. A record that names payload K is committed
 * only after K was written: by the same request (a put a moment before the commit), or by this
 * process within PUT_MEMORY_MS (externalizing-store.ts: a process skips the put of a key it put
 * itself that recently; it never skips on the strength of a read). So when a reference is
 * committed at time c, K was written at c - PUT_MEMORY_MS at the earliest (a request's own put
 * comes sooner than that). A candidate was last written more than `graceMs` before step 1 began,
 * and a reference step 2 missed was committed after step 2 began (or within the store's read lag
 * of it). As long as the sweep reaches step 3 within `graceMs - PUT_MEMORY_MS - READ_LAG_MS` of
 * starting (MAX_SWEEP_MS below; the sweep refuses to reclaim anything otherwise), such a K was
 * written after it was listed, and step 3 leaves it. What the sweep never sees: a payload path a
 * client holds outside the service (a worker's copy of a location, a client's saved path), which
 * stops working once nothing stored names it; an upload a client made but did not yet name in a
 * request, for `graceMs` (default two days); and payloads of expired runs the store has not yet
 * deleted (kept until it does).
 *
 * Locally the stores delete at once, atomically with their own writes. On S3 the sweep tags the
 * object and the bucket's lifecycle rule expires tagged objects; a write of the key by a run that
 * needs the payload again replaces the object, tag and all (s3.ts). The cost on AWS: one listing
 * of `payloads/`, one read of the executions table (no read at all when no payload is old enough),
 * and two requests per reclaimed payload.
 */
import type { PeriodicJob } from '../jobs/types.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../model/clock.ts';
import { PUT_MEMORY_MS } from './externalizing-store.ts';
import type { PayloadStore } from './ports.ts';

/** How late a store's scan may show a committed write (DynamoDB's eventually consistent reads). */
export const READ_LAG_MS = 60_000;

/** The shortest grace period the sweep accepts (`service.external-payload.sweep-grace`). */
export const MIN_SWEEP_GRACE_MS = 2 * 3_600_000;

/** How long a sweep may take from its listing to its first reclaim, for a grace period. */
export function maxSweepMs(graceMs: number): number {
  return graceMs - PUT_MEMORY_MS - READ_LAG_MS;
}

/** What the sweep works with (the workflows capability provides it over the host's services). */
export interface PayloadSweepDeps {
  payloads: PayloadStore;
  /** Hands every payload key any stored text names to `visit` (Capability.payloadReferences, every capability's). */
  references(visit: (key: string) => void): Promise<void>;
  /** `service.external-payload.sweep`. */
  enabled: boolean;
  /** `service.external-payload.sweep-grace`: payloads written more recently are never candidates. */
  graceMs: number;
  clock: Clock;
  logger: Logger;
}

export interface PayloadSweepResult {
  /** Why nothing was looked at. */
  skipped?: string;
  /** Payloads listed. */
  stored: number;
  /** Of those, last written before the grace period. */
  candidates: number;
  /** Of the candidates, named by nothing stored. */
  unreferenced: number;
  /** Of those, reclaimed (the rest were written again meanwhile, or are gone). */
  reclaimed: number;
}

export async function sweepPayloads(deps: PayloadSweepDeps): Promise<PayloadSweepResult> {
  const none = { stored: 0, candidates: 0, unreferenced: 0, reclaimed: 0 };
  const { payloads, clock, logger, graceMs } = deps;
  if (!deps.enabled) return { ...none, skipped: 'service.external-payload.sweep is off' };
  if (!payloads.list || !payloads.reclaim) return { ...none, skipped: 'the payload store cannot be listed' };
  const started = clock.now();
  const cutoff = started - graceMs;
  let stored = 0;
  const candidates = new Map<string, number>();
  for await (const { key, writtenAt } of payloads.list()) {
    stored++;
    if (writtenAt < cutoff) candidates.set(key, writtenAt);
  }
  const counted = { stored, candidates: candidates.size };
  // Nothing old enough: the stores need not be read at all.
  if (candidates.size === 0) return { ...none, ...counted };
  await deps.references((key) => candidates.delete(key));
  const took = clock.now() - started;
  if (took > maxSweepMs(graceMs)) {
    throw new Error(
      `The payload sweep read the stores for ${Math.round(took / 1000)} s, longer than its grace period allows (${Math.round(maxSweepMs(graceMs) / 1000)} s): nothing was reclaimed. Raise service.external-payload.sweep-grace.`,
    );
  }
  const unreferenced = candidates.size;
  let reclaimed = 0;
  for (const [key, writtenAt] of candidates) {
    if (await payloads.reclaim(key, writtenAt)) reclaimed++;
  }
  if (unreferenced > 0) logger.info('payload sweep', { ...counted, unreferenced, reclaimed });
  return { ...counted, unreferenced, reclaimed };
}

/** What the job gets from the workflows capability (its `provides`). */
export interface PayloadSweepProvided {
  payloadSweep: PayloadSweepDeps;
}

/**
 * The sweep as a periodic job: once a day (on AWS from an EventBridge rule, 15 minutes at most;
 * locally on the server's interval, never at its start, which it would hold up).
 */
export const payloadSweep: PeriodicJob<PayloadSweepProvided, PayloadSweepResult> = {
  readsProvided: true,
  name: 'payload-sweep',
  summary: 'reclaims large payloads that no stored run, task row or schedule names',
  every: '1440 minutes',
  timeoutSeconds: 900,
  run: async (deps, _now, { catchUp }) =>
    catchUp
      ? { skipped: 'not at start', stored: 0, candidates: 0, unreferenced: 0, reclaimed: 0 }
      : sweepPayloads(deps.payloadSweep),
  // Lists and tags payloads, and reads every table that may name one (Capability.payloadReferences).
  grants: { tables: [], sends: [], payloads: 'sweep' },
};
