/**
 * Cron evaluation for the scheduler, through croner (a maintained library, not a hand-written
 * parser). Spring's 6-field syntax with seconds first: `sec min hour day-of-month month
 * day-of-week`, with `?`, `L`, `W`, `#`, ranges, steps and month/day names; day-of-month and
 * day-of-week both apply when both are given (Spring's rule, croner's `domAndDow`). Weekdays count
 * from Sunday = 0 (7 is Sunday too), as in Spring.
 *
 * Time zones are IANA names. Daylight-saving time behaves as croner defines it (README,
 * "Scheduler"): a wall-clock time that does not exist on the spring-forward day runs at the first
 * valid time after the gap (`0 30 2 * * *` in New York runs at 03:00 EDT that day); a wall-clock
 * time that happens twice on the fall-back day runs once (the first, daylight time), while
 * interval patterns (`0 *\/30 * * * *`) keep running through both passes of the repeated hour.
 */
import { Cron } from 'croner';

/** Spring's cron has exactly six fields. */
const FIELDS = 6;

/** Why an expression or zone is refused; undefined when it is valid. */
export function cronProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== FIELDS || fields[0] === '') {
    return `'${expression}' is not a valid cron expression: it needs 6 fields (second minute hour day-of-month month day-of-week), got ${fields[0] === '' ? 0 : fields.length}`;
  }
  try {
    new Cron(expression, { timezone: 'UTC', domAndDow: true });
    return undefined;
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error);
    return `'${expression}' is not a valid cron expression: ${detail}`;
  }
}

/** Whether the zone is an IANA time zone the runtime knows (`UTC`, `Europe/Berlin`...). */
export function isKnownZone(zoneId: string): boolean {
  if (zoneId.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zoneId });
    return true;
  } catch {
    return false;
  }
}

const cache = new Map<string, Cron>();
const CACHE_LIMIT = 10_000;

function cronOf(expression: string, zoneId: string): Cron {
  const key = `${zoneId}\u0000${expression}`;
  let cron = cache.get(key);
  if (cron === undefined) {
    cron = new Cron(expression.trim(), { timezone: zoneId, domAndDow: true });
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, cron);
  }
  return cron;
}

/** The first fire time at or after `from` (epoch ms), or undefined when there is none. */
export function nextAtOrAfter(expression: string, zoneId: string, from: number): number | undefined {
  // croner excludes its start instant; fire times are whole seconds, so start one ms earlier.
  const next = cronOf(expression, zoneId).nextRun(new Date(from - 1));
  return next === null ? undefined : next.getTime();
}

/**
 * Fire times in [from, to), ascending, at most `limit` of them. `to` may be Infinity (then `limit`
 * bounds the walk).
 */
export function fireTimesBetween(
  expression: string,
  zoneId: string,
  from: number,
  to: number,
  limit: number,
): number[] {
  return walk(expression, zoneId, from, to, limit).times;
}

/**
 * Fire times in [from, to) (at most `limit`) and the first fire time after them, which the walk
 * reads anyway: undefined when there is none, or when the limit stopped the walk early.
 */
export function walk(
  expression: string,
  zoneId: string,
  from: number,
  to: number,
  limit: number,
): { times: number[]; next: number | undefined } {
  const times: number[] = [];
  let cursor = from;
  while (times.length < limit) {
    const next = nextAtOrAfter(expression, zoneId, cursor);
    if (next === undefined || next >= to) return { times, next };
    times.push(next);
    cursor = next + 1;
  }
  return { times, next: nextAtOrAfter(expression, zoneId, cursor) };
}

/** The last `count` fire times before `before`, ascending. */
export function fireTimesBefore(expression: string, zoneId: string, before: number, count: number): number[] {
  if (count <= 0) return [];
  return cronOf(expression, zoneId)
    .previousRuns(count, new Date(before))
    .map((d) => d.getTime())
    .filter((t) => t < before)
    .sort((a, b) => a - b);
}
