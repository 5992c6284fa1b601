/**
 * What a schedule fires next, as pure functions of the schedule and the time: its next run time,
 * and the fire times one dispatch sends. A dispatch covers [nextRunTime, now + DISPATCH_HORIZON_MS):
 * the tick runs every minute, so each fire time is sent once ahead of its second (the 30 s of
 * overlap absorb a late tick) and the queue's delay brings it to that second.
 *
 * Missed fire times (the service was down, the schedule or the scheduler paused) are those more
 * than LATE_TOLERANCE_MS in the past. Without `runCatchupScheduleInstances` they are skipped; with
 * it the most recent MAX_CATCH_UP of them per cron expression are replayed, older ones skipped: a
 * `* * * * * *` schedule down for a day would otherwise start 86,400 workflows at once, a flood no
 * caller asked for, and a bound of 100 replays any minute-or-slower schedule's last outage of an
 * hour and more in full.
 */
import { fireTimesBefore, fireTimesBetween, nextAtOrAfter, walk } from './cron.ts';
import { cronEntriesOf, type WorkflowSchedule } from './model.ts';

/** The tick's rate (schedule-tick.ts). */
export const TICK_MS = 60_000;
/** How far ahead one dispatch sends fires: a tick plus 30 s for a late one (SQS takes up to 900 s). */
export const DISPATCH_HORIZON_MS = TICK_MS + 30_000;
/** A fire time at most this far in the past is late, not missed: it still fires. */
export const LATE_TOLERANCE_MS = 2 * TICK_MS;
/** Missed fire times replayed per cron expression with runCatchupScheduleInstances. */
export const MAX_CATCH_UP = 100;
/** Fire times one dispatch sends per cron expression (a seconds cron has 90 in the horizon). */
const MAX_FIRES_PER_ENTRY = 1000;

export interface PlannedFire {
  cronExpression: string;
  zoneId: string;
  scheduledTime: number;
}

export interface FirePlan {
  fires: PlannedFire[];
  /** The first fire time after this dispatch; undefined when the schedule has none left. */
  nextRunTime: number | undefined;
  /** Missed fire times skipped (no catch-up, or beyond MAX_CATCH_UP), counted. */
  skipped: number;
}

/** The first fire time at or after `from` within the schedule's bounds. */
export function nextRunTimeOf(schedule: WorkflowSchedule, from: number): number | undefined {
  const start = Math.max(from, schedule.scheduleStartTime ?? 0);
  let next: number | undefined;
  for (const entry of cronEntriesOf(schedule)) {
    const t = nextAtOrAfter(entry.cronExpression, entry.zoneId, start);
    if (t !== undefined && (next === undefined || t < next)) next = t;
  }
  if (next === undefined || (schedule.scheduleEndTime !== undefined && next > schedule.scheduleEndTime)) {
    return undefined;
  }
  return next;
}

/**
 * The fires to send now for fire times from `from` (the schedule's first undispatched time, or
 * earlier when re-sending what a lost process held) up to the horizon.
 */
export function planFires(schedule: WorkflowSchedule, from: number, now: number): FirePlan {
  const lower = Math.max(from, schedule.scheduleStartTime ?? 0);
  const horizon = now + DISPATCH_HORIZON_MS;
  const upper =
    schedule.scheduleEndTime === undefined ? horizon : Math.min(horizon, schedule.scheduleEndTime + 1);
  const lateBound = Math.max(lower, now - LATE_TOLERANCE_MS);
  const fires: PlannedFire[] = [];
  let skipped = 0;
  let next: number | undefined;
  for (const { cronExpression, zoneId } of cronEntriesOf(schedule)) {
    if (lower < lateBound) {
      const missedEnd = Math.min(lateBound, upper);
      const missed = countUpTo(cronExpression, zoneId, lower, missedEnd, MAX_CATCH_UP + 1);
      const replay = schedule.runCatchupScheduleInstances
        ? fireTimesBefore(cronExpression, zoneId, missedEnd, MAX_CATCH_UP).filter((t) => t >= lower)
        : [];
      skipped += Math.max(0, missed - replay.length);
      for (const t of replay) fires.push({ cronExpression, zoneId, scheduledTime: t });
    }
    const window = walk(cronExpression, zoneId, lateBound, upper, MAX_FIRES_PER_ENTRY);
    for (const t of window.times) fires.push({ cronExpression, zoneId, scheduledTime: t });
    if (window.next !== undefined && (next === undefined || window.next < next)) next = window.next;
  }
  fires.sort((a, b) => a.scheduledTime - b.scheduledTime);
  // The first fire time after this dispatch: each walk read it (the first time at or past `upper`).
  const end = schedule.scheduleEndTime;
  return {
    fires,
    nextRunTime: next === undefined || (end !== undefined && next > end) ? undefined : next,
    skipped,
  };
}

/** How many fire times lie in [from, to), counting no further than `cap`. */
function countUpTo(expression: string, zoneId: string, from: number, to: number, cap: number): number {
  return fireTimesBetween(expression, zoneId, from, to, cap).length;
}
