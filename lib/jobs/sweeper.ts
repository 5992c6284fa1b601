/**
 * The wake-up sweeper, every minute: requests decides of runs whose stored wake-up has come. On
 * AWS it catches wake-ups beyond SQS's 15-minute delay and anything a lost message left behind;
 * locally the same, and at start (catch-up) it decides every run with a stored wake-up, because
 * the in-process timers died with the last process and a worker update saved just before it died
 * asked for a decide that was lost with it. Each decide arms its run's timer (locally always; on
 * SQS not one an earlier decide armed and sent already: DecisionQueue.wakeAt). The catch-up also
 * decides every unfinished run read from the runs themselves: the embedded store writes a run and
 * its wake-up index entry separately, so a crash between the two must not hide a WAIT forever.
 */

import { mapLimited } from '../model/map-limited.ts';
import { EXECUTIONS_TABLE } from '../store/dynamodb/tables.ts';
import type { JobDeps, PeriodicJob } from './types.ts';

/** Runs taken per sweep: one tick's worth; a longer backlog is finished by the next ticks. */
export const SWEEP_LIMIT = 1000;

/** Runs taken by the catch-up sweep at start: every stored wake-up, as far as is sane. */
export const CATCH_UP_LIMIT = 100_000;

/** Decide requests the sweeper has in flight at once (SQS latency, not CPU, bounds a sweep). */
const SWEEP_CONCURRENCY = 25;

export interface SweepResult {
  due: number;
  requested: number;
}

export const sweeper: PeriodicJob<object, SweepResult> = {
  name: 'sweeper',
  summary: 'requests decides of runs whose wake-up has come',
  every: '1 minute',
  // One sweep sends up to SWEEP_LIMIT messages; it must end before the next tick starts.
  timeoutSeconds: 55,
  run: (deps, now, { catchUp }) => (catchUp ? catchUpSweep(deps) : sweepWakeups(deps, now)),
  // Finds due runs through the executions table's wake-up index (and, at a local start, by
  // scanning it); writes nothing.
  grants: { tables: [{ table: EXECUTIONS_TABLE, access: 'read' }], sends: ['decisions'] },
};

/**
 * Requests a decide of every run whose wake-up is at or before `now`, up to `limit` of them. A
 * failed request is retried by the next sweep (the run stays due until a decide moves its
 * wake-up), but the sweep still fails at the end so that the function's error metric shows it.
 */
export async function sweepWakeups(
  deps: Pick<JobDeps, 'stores' | 'decisions' | 'logger' | 'metrics'>,
  now: number,
  limit = SWEEP_LIMIT,
): Promise<SweepResult> {
  const due = (await deps.stores.executions.dueWakeups(now, limit)).map((d) => d.workflowId);
  // The backlog of runs waiting for their timer (capped at one sweep's limit).
  deps.metrics?.record('WakeupsDue', due.length, 'Count');
  return requestDecides(deps, due, limit);
}

/**
 * The local start: every run with a stored wake-up, due or not, and every unfinished run read
 * from the base table, each decided once. A run that needs nothing is left as it was by its decide.
 */
export async function catchUpSweep(
  deps: Pick<JobDeps, 'stores' | 'decisions' | 'logger'>,
  limit = CATCH_UP_LIMIT,
): Promise<SweepResult> {
  const { executions } = deps.stores;
  const woken = await executions.dueWakeups(Number.MAX_SAFE_INTEGER, limit);
  const unfinished = await executions.unfinishedWorkflows(limit);
  const ids = [...new Set([...woken.map((d) => d.workflowId), ...unfinished])];
  return requestDecides(deps, ids, limit);
}

async function requestDecides(
  deps: Pick<JobDeps, 'decisions' | 'logger'>,
  due: readonly string[],
  limit: number,
): Promise<SweepResult> {
  let failed = 0;
  let firstError: unknown;
  await mapLimited(due, SWEEP_CONCURRENCY, async (workflowId) => {
    try {
      await deps.decisions.request(workflowId);
    } catch (error) {
      failed++;
      firstError ??= error;
    }
  });
  const result = { due: due.length, requested: due.length - failed };
  if (due.length >= limit) deps.logger.warn('more runs are due than one sweep takes', { limit });
  if (due.length > 0) deps.logger.info('swept due wake-ups', { ...result });
  if (failed > 0) {
    throw new Error(`${failed} of ${due.length} decide requests failed: ${describe(firstError)}`, {
      cause: firstError,
    });
  }
  return result;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
