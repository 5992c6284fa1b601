/**
 * WAIT task inputs (docs/conductor-compat.md §5.12): `duration` such as "30s", "2 minutes" or
 * "1d 2h 3m 4s", and `until` such as "2026-01-31 14:30", "2026-01-31 14:30 America/New_York" or
 * "2026-01-31". Pure: the caller adds a duration to its own clock.
 */

import { isKnownZone, wallClock } from '../model/zone-clock.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNITS = new Map<string, number>([
  ...['d', 'day', 'days'].map((unit): [string, number] => [unit, DAY]),
  ...['h', 'hr', 'hrs', 'hour', 'hours'].map((unit): [string, number] => [unit, HOUR]),
  ...['m', 'min', 'mins', 'minute', 'minutes'].map((unit): [string, number] => [unit, MINUTE]),
  ...['s', 'sec', 'secs', 'second', 'seconds'].map((unit): [string, number] => [unit, SECOND]),
]);

const DURATION_PART = /(\d+)\s*([a-z]+)\s*/y;

/**
 * Milliseconds in a WAIT `duration`: whole-number parts with units d/day(s), h/hr(s)/hour(s),
 * m/min(s)/minute(s), s/sec(s)/second(s), in any case, each unit at most once. A plain integer is
 * seconds. Throws an Error naming the text when it is anything else.
 */
export function parseDuration(text: string): number {
  const trimmed = text.trim().toLowerCase();
  const invalid = (why: string) =>
    new Error(`Invalid duration '${text}': ${why} (expected e.g. "30s", "2 minutes" or "1d 2h 3m 4s")`);
  if (trimmed === '') throw invalid('it is empty');
  if (/^\d+$/.test(trimmed)) return checked(Number(trimmed) * SECOND, invalid);
  const seen = new Set<number>();
  let total = 0;
  DURATION_PART.lastIndex = 0;
  while (DURATION_PART.lastIndex < trimmed.length) {
    const at = DURATION_PART.lastIndex;
    const match = DURATION_PART.exec(trimmed);
    if (!match) throw invalid(`cannot read '${trimmed.slice(at)}'`);
    const [, amount = '', unit = ''] = match;
    const size = UNITS.get(unit);
    if (size === undefined) throw invalid(`unknown unit '${unit}'`);
    if (seen.has(size)) throw invalid(`unit '${unit}' is given twice`);
    seen.add(size);
    total += Number(amount) * size;
  }
  return checked(total, invalid);
}

function checked(ms: number, invalid: (why: string) => Error): number {
  if (!Number.isSafeInteger(ms)) throw invalid('it is too long');
  return ms;
}

const UNTIL = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?:\s+(\S+))?)?$/;
const OFFSET = /^(?:GMT|UTC|UT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;
const UTC_NAMES = new Set(['Z', 'UTC', 'GMT', 'UT']);
/** North-American abbreviations Java's `z` accepts, as the fixed offsets they name (in hours). */
const ABBREVIATIONS = new Map<string, number>([
  ['EST', -5],
  ['EDT', -4],
  ['CST', -6],
  ['CDT', -5],
  ['MST', -7],
  ['MDT', -6],
  ['PST', -8],
  ['PDT', -7],
]);

/** The offset from UTC of a zone Intl knows, at instant `at`, in ms (wall clock minus UTC). */
function intlOffset(zone: string, at: number): number {
  return (wallClock(at, zone) as number) - (at - (((at % SECOND) + SECOND) % SECOND));
}

/** Turns a wall-clock time (as if it were UTC) into an instant in `zone`; undefined for an unknown zone. */
function wallToInstant(wall: number, zone: string): number | undefined {
  const upper = zone.toUpperCase();
  if (UTC_NAMES.has(upper)) return wall;
  const abbreviation = ABBREVIATIONS.get(upper);
  if (abbreviation !== undefined) return wall - abbreviation * HOUR;
  const offset = OFFSET.exec(zone);
  if (offset) {
    const [, sign, hours = '0', minutes = '0'] = offset;
    if (Number(hours) > 18 || Number(minutes) > 59) return undefined;
    return wall - (sign === '-' ? -1 : 1) * (Number(hours) * HOUR + Number(minutes) * MINUTE);
  }
  if (!isKnownZone(zone)) return undefined;
  // Guess with the offset at the wall time read as UTC, then correct once across a DST change.
  const guess = wall - intlOffset(zone, wall);
  const corrected = wall - intlOffset(zone, guess);
  if (corrected === guess || wall - intlOffset(zone, corrected) === corrected) return corrected;
  // The wall time falls in a spring-forward gap: move it forward by the gap, as Java's lenient parse does.
  return Math.max(guess, corrected);
}

/**
 * Epoch ms of a WAIT `until`: "yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm z" or "yyyy-MM-dd" (midnight).
 * `z` is an IANA zone ("America/New_York"), UTC/GMT/Z, an offset ("+05:30", "GMT-8") or a US
 * abbreviation (EST, PDT, …); without one, `defaultZone` applies. Throws an Error for invalid text.
 */
export function parseUntil(text: string, defaultZone = 'UTC'): number {
  const invalid = (why: string) =>
    new Error(
      `Invalid until '${text}': ${why} (expected "yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm z" or "yyyy-MM-dd")`,
    );
  const match = UNTIL.exec(text.trim());
  if (!match) throw invalid('unrecognised format');
  const field = (index: number): number => Number(match[index] ?? 0);
  const [year, month, day, hour, minute] = [field(1), field(2), field(3), field(4), field(5)];
  const zone = match[6] ?? defaultZone;
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const date = new Date(wall);
  const sameDay =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!sameDay || hour > 23 || minute > 59) throw invalid('no such date or time');
  const instant = wallToInstant(wall, zone);
  if (instant === undefined) throw invalid(`unknown time zone '${zone}'`);
  return instant;
}
