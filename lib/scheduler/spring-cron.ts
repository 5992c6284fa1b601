/**
 * Spring's cron dialect (the one Conductor's scheduler parses, `CronExpression`), read field by
 * field with Spring's rules and written out as a croner pattern that fires at the same times
 * (cron.ts hands it to croner). Six fields, seconds first; the macros `@yearly`, `@annually`,
 * `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly`.
 *
 * - Every field: `*`, numbers, ranges `a-b` (a <= b), lists, steps `*\/n`, `a-b/n` and `a/n` (from
 *   a to the field's end). Steps and ranges are written out for croner as the list of values they
 *   stand for, so croner's own step rules (it refuses `a/n`) never apply.
 * - Month: `JAN`-`DEC`; day of week: `MON`-`SUN`, 0 or 7 for Sunday, names in any case. Spring
 *   counts a day-of-week step over 1-7 (Monday first): `*\/2` is Monday, Wednesday, Friday and
 *   Sunday.
 * - `?` stands for `*` in the day-of-month and day-of-week fields only.
 * - Day of month: `L` (last day), `L-n` (the day n days before the last), `LW` (last weekday),
 *   `nW` (the weekday nearest day n: a Saturday moves to the Friday before, or to Monday the 3rd
 *   for `1W`, a Sunday to the Monday after). Day of week: `dL` (last d of the month), `d#n` (n-th d
 *   of the month).
 * - Day of month and day of week both apply when both are restricted (croner's `domAndDow`).
 *
 * croner cannot say some of these: `L-n`, `LW` in a list, and `nW` from 28 on (when day n is the
 * month's last day and a Sunday, Spring moves it to the Monday after, into the next month, where it
 * never matches, so that month has no fire; croner moves it to the Friday before). For those the
 * croner pattern keeps every day of the month and `day` tells which local dates fire. `d#n` with
 * n above 5 never matches (Spring accepts it and never fires): it is refused.
 */

/** A Spring expression as croner reads it. */
export interface SpringCron {
  /** The croner pattern (six fields, croner's weekday numbering: 0 is Sunday). */
  pattern: string;
  /** When set, only local dates it accepts fire (day-of-month forms croner cannot say, and the months). */
  day?: (year: number, month: number, date: number) => boolean;
}

const MACROS: Readonly<Record<string, string>> = {
  '@YEARLY': '0 0 0 1 1 *',
  '@ANNUALLY': '0 0 0 1 1 *',
  '@MONTHLY': '0 0 0 1 * *',
  '@WEEKLY': '0 0 0 * * 0',
  '@DAILY': '0 0 0 * * *',
  '@MIDNIGHT': '0 0 0 * * *',
  '@HOURLY': '0 0 * * * *',
};

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  /** Day of week: 0 is also Sunday (7). */
  dow?: true;
}

const SECOND: FieldSpec = { name: 'second', min: 0, max: 59 };
const MINUTE: FieldSpec = { name: 'minute', min: 0, max: 59 };
const HOUR: FieldSpec = { name: 'hour', min: 0, max: 23 };
const DAY_OF_MONTH: FieldSpec = { name: 'day-of-month', min: 1, max: 31 };
const MONTH: FieldSpec = { name: 'month', min: 1, max: 12 };
const DAY_OF_WEEK: FieldSpec = { name: 'day-of-week', min: 1, max: 7, dow: true };

class CronSyntaxError extends Error {}

const fail = (spec: FieldSpec, message: string): never => {
  throw new CronSyntaxError(`${spec.name} field: ${message}`);
};

/** A whole number as Java's Integer.parseInt reads it (a leading `+` allowed). */
const NUMBER = /^\+?\d+$/;

function number(text: string, spec: FieldSpec): number {
  if (!NUMBER.test(text)) fail(spec, `'${text}' is not a number`);
  const value = Number(text);
  const min = spec.dow ? 0 : spec.min;
  if (value < min || value > spec.max) fail(spec, `${value} is not within ${min}-${spec.max}`);
  return value;
}

function range(text: string, spec: FieldSpec): { min: number; max: number } {
  if (text === '*') return { min: spec.min, max: spec.max };
  const hyphen = text.indexOf('-');
  if (hyphen < 0) {
    const value = number(text, spec);
    return { min: value, max: value };
  }
  let min = number(text.slice(0, hyphen), spec);
  const max = number(text.slice(hyphen + 1), spec);
  // As the start of a range, Sunday is 0: `SUN-TUE` is Sunday to Tuesday.
  if (spec.dow && min === 7) min = 0;
  if (min > max) fail(spec, `the range '${text}' starts after it ends`);
  return { min, max };
}

/** The values a plain (non-Quartz) list stands for, Spring's way; a weekday 0 is 7. */
function values(text: string, spec: FieldSpec): number[] {
  const out = new Set<number>();
  for (const element of text.split(',')) {
    const slash = element.indexOf('/');
    const rangeText = slash < 0 ? element : element.slice(0, slash);
    const bounds = range(rangeText, spec);
    const min = bounds.min;
    let max = bounds.max;
    let step = 1;
    if (slash >= 0) {
      const stepText = element.slice(slash + 1);
      if (!NUMBER.test(stepText)) fail(spec, `the step of '${element}' is not a number`);
      step = Number(stepText);
      if (step < 1) fail(spec, `the step of '${element}' must be 1 or more`);
      // `a/n` counts from a to the end of the field.
      if (!rangeText.includes('-')) max = spec.max;
    }
    for (let v = min; v <= max; v += step) out.add(v);
  }
  if (spec.dow && out.delete(0)) out.add(7);
  return [...out].sort((a, b) => a - b);
}

/** A field of plain values as croner reads it: `*` kept, anything else written out as a list. */
function plain(text: string, spec: FieldSpec): string {
  if (text.includes('?')) fail(spec, "'?' is only allowed in the day-of-month and day-of-week fields");
  const list = values(text, spec);
  return text === '*' ? '*' : list.join(',');
}

const replaceNames = (text: string, names: string[]): string =>
  names.reduce((out, name, i) => out.split(name).join(String(i + 1)), text.toUpperCase());

// ---- calendar helpers (proleptic Gregorian, no time zone: a local date) ----

const lastDayOf = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();
/** 0 is Sunday. */
const weekdayOf = (year: number, month: number, date: number): number =>
  new Date(Date.UTC(year, month - 1, date)).getUTCDay();

/** Spring's `nW` in a month: the weekday nearest day `n`, or undefined when that month has none. */
function nearestWeekday(year: number, month: number, n: number): number | undefined {
  const last = lastDayOf(year, month);
  if (n > last) return undefined;
  const weekday = weekdayOf(year, month, n);
  if (weekday === 6) return n === 1 ? 3 : n - 1;
  if (weekday === 0) return n + 1 <= last ? n + 1 : undefined;
  return n;
}

function lastWeekday(year: number, month: number): number {
  const last = lastDayOf(year, month);
  const weekday = weekdayOf(year, month, last);
  return weekday === 6 ? last - 1 : weekday === 0 ? last - 2 : last;
}

type DatePredicate = (year: number, month: number, date: number) => boolean;

/** One element of a day-of-month list with `L` or `W`, as croner writes it (if it can) and as a predicate. */
interface DomElement {
  croner?: string;
  matches: DatePredicate;
}

function domElement(element: string): DomElement {
  const spec = DAY_OF_MONTH;
  const l = element.lastIndexOf('L');
  if (l >= 0) {
    if (l !== 0) fail(spec, `unrecognized characters before 'L' in '${element}'`);
    if (element === 'LW') return { matches: (y, m, d) => d === lastWeekday(y, m) };
    if (element === 'L') return { croner: 'L', matches: (y, m, d) => d === lastDayOf(y, m) };
    const offset = element.slice(1);
    if (!/^-\d+$/.test(offset) || Number(offset) === 0)
      fail(spec, `'${element}' must be L, LW or L-n with n of 1 or more`);
    const n = -Number(offset);
    // The day n days before the month's last: the date that lies n days before a month's end.
    return {
      matches: (y, m, d) => {
        const later = new Date(Date.UTC(y, m - 1, d + n));
        return later.getUTCDate() === lastDayOf(later.getUTCFullYear(), later.getUTCMonth() + 1);
      },
    };
  }
  const w = element.lastIndexOf('W');
  if (w >= 0) {
    if (w === 0) fail(spec, `no day-of-month before 'W' in '${element}'`);
    if (w !== element.length - 1) fail(spec, `unrecognized characters after 'W' in '${element}'`);
    const n = number(element.slice(0, w), spec);
    // croner agrees with Spring unless day n can be the month's last day (28 and later).
    return { ...(n < 28 ? { croner: `${n}W` } : {}), matches: (y, m, d) => d === nearestWeekday(y, m, n) };
  }
  const days = new Set(values(element === '?' ? '*' : element, spec));
  return { croner: [...days].join(','), matches: (_y, _m, d) => days.has(d) };
}

function dayOfMonth(text: string): { croner: string; day?: DatePredicate } {
  if (!text.includes('L') && !text.includes('W')) {
    if (text === '?' || text === '*') return { croner: '*' };
    if (text.includes('?')) fail(DAY_OF_MONTH, "'?' must stand alone");
    return { croner: values(text, DAY_OF_MONTH).join(',') };
  }
  const elements = text.split(',').map(domElement);
  if (text === 'LW') return { croner: 'LW' };
  if (elements.every((e) => e.croner !== undefined))
    return { croner: elements.map((e) => e.croner as string).join(',') };
  return { croner: '*', day: (y, m, d) => elements.some((e) => e.matches(y, m, d)) };
}

/** A weekday of a `dL` or `d#n` element, in croner's numbering (0 is Sunday). */
function weekday(text: string, element: string): number {
  if (!NUMBER.test(text) || Number(text) > 7)
    fail(DAY_OF_WEEK, `'${element}' does not start with a day of week`);
  return Number(text) % 7;
}

function dayOfWeek(raw: string): string {
  const text = replaceNames(raw, DAYS);
  if (text === '?' || text === '*') return '*';
  if (!text.includes('L') && !text.includes('#')) {
    if (text.includes('?')) fail(DAY_OF_WEEK, "'?' must stand alone");
    return [...new Set(values(text, DAY_OF_WEEK).map((d) => d % 7))].join(',');
  }
  const out: string[] = [];
  for (const element of text.split(',')) {
    const l = element.lastIndexOf('L');
    const hash = element.lastIndexOf('#');
    if (l >= 0) {
      if (l !== element.length - 1) fail(DAY_OF_WEEK, `unrecognized characters after 'L' in '${element}'`);
      if (l === 0) fail(DAY_OF_WEEK, `no day of week before 'L' in '${element}'`);
      out.push(`${weekday(element.slice(0, l), element)}#L`);
    } else if (hash >= 0) {
      if (hash === 0) fail(DAY_OF_WEEK, `no day of week before '#' in '${element}'`);
      const ordinal = element.slice(hash + 1);
      if (!NUMBER.test(ordinal) || Number(ordinal) < 1)
        fail(DAY_OF_WEEK, `the ordinal of '${element}' must be a number of 1 or more`);
      if (Number(ordinal) > 5)
        fail(DAY_OF_WEEK, `'${element}' never matches: a month has at most 5 of any day of week`);
      out.push(`${weekday(element.slice(0, hash), element)}#${Number(ordinal)}`);
    } else {
      const days = values(element === '?' ? '*' : element, DAY_OF_WEEK);
      out.push(...days.map((d) => String(d % 7)));
    }
  }
  return [...new Set(out)].join(',');
}

/** The expression as croner reads it, or why it is not one of Spring's. */
export function parseSpringCron(expression: string): SpringCron | string {
  const trimmed = expression.trim();
  const text = MACROS[trimmed.toUpperCase()] ?? trimmed;
  const fields = text === '' ? [] : text.split(/\s+/);
  if (fields.length !== 6) {
    return `it needs 6 fields (second minute hour day-of-month month day-of-week), got ${fields.length}`;
  }
  const [second, minute, hour, dom, month, dow] = fields as [string, string, string, string, string, string];
  try {
    const days = dayOfMonth(dom);
    const monthText = replaceNames(month, MONTHS);
    const pattern = [
      plain(second, SECOND),
      plain(minute, MINUTE),
      plain(hour, HOUR),
      days.croner,
      plain(monthText, MONTH),
      dayOfWeek(dow),
    ].join(' ');
    const inDays = days.day;
    if (!inDays) return { pattern };
    // The check holds the months too, so a walk skips the months croner would refuse.
    const months = new Set(values(monthText, MONTH));
    return { pattern, day: (y, m, d) => months.has(m) && inDays(y, m, d) };
  } catch (error) {
    if (error instanceof CronSyntaxError) return error.message;
    throw error;
  }
}
