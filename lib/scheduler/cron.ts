/**
 * Cron evaluation for the scheduler, through croner (a maintained library, not a hand-written
 * evaluator). Expressions are Spring's dialect, as Conductor's scheduler parses them: six fields
 * with seconds first, `?`, steps from a number (`0/5`), `L`, `W`, `#`, month and day names, the
 * `@daily`-style macros. spring-cron.ts reads an expression with Spring's rules and writes the
 * croner pattern that fires at the same times; the few day-of-month forms croner cannot say are
 * checked date by date on croner's times (`SpringCron.day`). Day-of-month and day-of-week both
 * apply when both are given (Spring's rule, croner's `domAndDow`).
 *
 * Time zones are IANA names. Daylight-saving time behaves as croner defines it (README,
 * "Scheduler"): a wall-clock time that does not exist on the spring-forward day runs at the first
 * valid time after the gap (`0 30 2 * * *` in New York runs at 03:00 EDT that day); a wall-clock
 * time that happens twice on the fall-back day runs once (the first, daylight time), while
 * interval patterns (`0 *\/30 * * * *`) keep running through both passes of the repeated hour.
 */
import { Cron } from 'croner';
import { isKnownZone, wallClock } from '../model/zone-clock.ts';
import { parseSpringCron, type SpringCron } from './spring-cron.ts';

/** Why an expression is refused; undefined when it is valid. */
export function cronProblem(expression: string): string | undefined {
  const parsed = parseSpringCron(expression);
  const problem = typeof parsed === 'string' ? parsed : cronerProblem(parsed.pattern);
  return problem === undefined ? undefined : `'${expression}' is not a valid cron expression: ${problem}`;
}

/** What croner says of a translated pattern (nothing, unless the translation is wrong). */
function cronerProblem(pattern: string): string | undefined {
  try {
    new Cron(pattern, CRON_OPTIONS('UTC'));
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error);
  }
}

const CRON_OPTIONS = (timezone: string) => ({ timezone, domAndDow: true, mode: '6-part' as const });

/** An expression ready to evaluate in one zone: croner's pattern, and the dates it may fire on. */
interface Schedule {
  cron: Cron;
  /** Only with a date check (SpringCron.day): the zone's calendar, to move between local dates. */
  days?: LocalDays;
}

const cache = new Map<string, Schedule>();
const CACHE_LIMIT = 10_000;

function scheduleOf(expression: string, zoneId: string): Schedule {
  const key = `${zoneId}\u0000${expression}`;
  let schedule = cache.get(key);
  if (schedule === undefined) {
    const spring = parseSpringCron(expression);
    // A schedule saved before expressions were read as Spring's (croner's own syntax, such as
    // `5#L`) is read by croner as it was then, rather than stopping the scheduler.
    const parsed: SpringCron = typeof spring === 'string' ? { pattern: expression.trim() } : spring;
    const cron = new Cron(parsed.pattern, CRON_OPTIONS(zoneId));
    schedule = parsed.day ? { cron, days: new LocalDays(zoneId, parsed.day) } : { cron };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, schedule);
  }
  return schedule;
}

/** How far a walk looks for a date the check accepts (Spring gives up after a few hundred tries). */
const DAYS_SCANNED = 3700;
/** Candidate times a walk may try before it gives up (each a croner call). */
const MAX_TRIES = 1000;
const DAY_MS = 86_400_000;

/**
 * The local dates of one zone that a date check (SpringCron.day) accepts. The check is plain
 * calendar arithmetic, so a walk skips refused dates here and asks croner only for times on
 * accepted ones (croner still decides months, weekdays, times of day and daylight saving).
 */
class LocalDays {
  private readonly midnight: Cron;

  constructor(
    private readonly zoneId: string,
    private readonly accepts: NonNullable<SpringCron['day']>,
  ) {
    if (!isKnownZone(zoneId)) throw new RangeError(`Invalid time zone specified: ${zoneId}`);
    this.midnight = new Cron('0 0 0 * * *', CRON_OPTIONS(zoneId));
  }

  /** The local wall-clock time of an instant, as the UTC instant with the same fields. */
  private wallTime(t: number): number {
    return wallClock(t, this.zoneId) as number;
  }

  /** The local date of an instant, as a UTC midnight. */
  private dateOf(t: number): number {
    const wall = this.wallTime(t);
    return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  }

  private accepted(date: number): boolean {
    const d = new Date(date);
    return this.accepts(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  }

  fires(t: number): boolean {
    return this.accepted(this.dateOf(t));
  }

  /** When the local date (a UTC midnight) begins in the zone: its first instant, as croner sees it. */
  private startOf(date: number): number | undefined {
    // Local noon of the day before, give or take a daylight-saving hour: the next local midnight
    // after it is the date's own.
    const noonBefore = date - DAY_MS / 2;
    const approx = noonBefore - (this.wallTime(noonBefore) - noonBefore);
    return this.midnight.nextRun(new Date(approx))?.getTime();
  }

  /** The start of the first accepted local date after the date of `t`. */
  nextStart(t: number): number | undefined {
    let date = this.dateOf(t);
    for (let i = 0; i < DAYS_SCANNED; i++) {
      date += DAY_MS;
      if (this.accepted(date)) return this.startOf(date);
    }
    return undefined;
  }

  /** The end (the next date's start) of the last accepted local date before the date of `t`. */
  previousEnd(t: number): number | undefined {
    let date = this.dateOf(t);
    for (let i = 0; i < DAYS_SCANNED; i++) {
      date -= DAY_MS;
      if (this.accepted(date)) return this.startOf(date + DAY_MS);
    }
    return undefined;
  }
}

/** The first fire time at or after `from` (epoch ms), or undefined when there is none. */
export function nextAtOrAfter(expression: string, zoneId: string, from: number): number | undefined {
  const { cron, days } = scheduleOf(expression, zoneId);
  // croner excludes its start instant; fire times are whole seconds, so start one ms earlier.
  let cursor = from - 1;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const next = cron.nextRun(new Date(cursor));
    if (next === null) return undefined;
    const t = next.getTime();
    if (!days || days.fires(t)) return t;
    // A refused date: go on from the start of the next accepted one.
    const start = days.nextStart(t);
    if (start === undefined) return undefined;
    cursor = Math.max(start - 1, t);
  }
  return undefined;
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
  const { cron, days } = scheduleOf(expression, zoneId);
  if (!days) {
    return cron
      .previousRuns(count, new Date(before))
      .map((d) => d.getTime())
      .filter((t) => t < before)
      .sort((a, b) => a - b);
  }
  const times: number[] = [];
  let cursor = before;
  for (let tries = 0; times.length < count && tries < MAX_TRIES + count; tries++) {
    const [previous] = cron.previousRuns(1, new Date(cursor));
    if (!previous || previous.getTime() >= cursor) break;
    const t = previous.getTime();
    if (days.fires(t)) {
      times.push(t);
      cursor = t;
      continue;
    }
    // A refused date: go on from the end of the last accepted one before it.
    const end = days.previousEnd(t);
    if (end === undefined) break;
    cursor = Math.min(end, t);
  }
  return times.sort((a, b) => a - b);
}
