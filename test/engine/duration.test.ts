/** WAIT inputs (docs/conductor-compat.md §5.12): `duration` text to ms, `until` text to an instant. */
import { describe, expect, it } from 'vitest';
import { parseDuration, parseUntil } from '../../lib/engine/duration.ts';

const S = 1_000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('parseDuration', () => {
  it.each([
    ['30s', 30 * S],
    ['2 minutes', 2 * M],
    ['1d 2h 3m 4s', D + 2 * H + 3 * M + 4 * S],
    ['1d2h3m4s', D + 2 * H + 3 * M + 4 * S],
    ['1 day', D],
    ['3 days', 3 * D],
    ['1hr', H],
    ['2 hrs', 2 * H],
    ['1 hour 30 mins', H + 30 * M],
    ['5 hours', 5 * H],
    ['1 min', M],
    ['1 minute', M],
    ['10 sec', 10 * S],
    ['10 secs', 10 * S],
    ['1 second', S],
    ['0s', 0],
    ['  45 seconds  ', 45 * S],
  ])('reads %j', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('reads units in any case', () => {
    expect(parseDuration('1D 2H 3M 4S')).toBe(D + 2 * H + 3 * M + 4 * S);
    expect(parseDuration('2 Minutes')).toBe(2 * M);
  });

  it('reads units in any order', () => {
    expect(parseDuration('4s 1d')).toBe(D + 4 * S);
  });

  it('reads a plain integer as seconds', () => {
    expect(parseDuration('90')).toBe(90 * S);
    expect(parseDuration(' 0 ')).toBe(0);
  });

  it.each([
    ['', 'it is empty'],
    ['   ', 'it is empty'],
    ['abc', "cannot read 'abc'"],
    ['10 weeks', "unknown unit 'weeks'"],
    ['1.5h', "cannot read '1.5h'"],
    ['-5s', "cannot read '-5s'"],
    ['5s 3s', "unit 's' is given twice"],
    ['1 hour 2 hrs', "unit 'hrs' is given twice"],
    ['5s and more', "cannot read 'and more'"],
    ['5 fortnights', "unknown unit 'fortnights'"],
    ['99999999999999999 days', 'it is too long'],
  ])('rejects %j with a clear message', (text, why) => {
    expect(() => parseDuration(text)).toThrow(`Invalid duration '${text}': ${why}`);
  });
});

describe('parseUntil', () => {
  it('reads a date and time in UTC by default', () => {
    expect(parseUntil('2026-01-31 14:30')).toBe(Date.UTC(2026, 0, 31, 14, 30));
  });

  it('reads a date alone as midnight', () => {
    expect(parseUntil('2026-01-31')).toBe(Date.UTC(2026, 0, 31));
  });

  it('accepts one-digit month, day and hour', () => {
    expect(parseUntil('2026-1-5 7:05')).toBe(Date.UTC(2026, 0, 5, 7, 5));
  });

  it('uses the given default zone when the text names none', () => {
    expect(parseUntil('2026-01-31 14:30', 'Asia/Kolkata')).toBe(Date.UTC(2026, 0, 31, 9, 0));
    expect(parseUntil('2026-01-31', 'America/New_York')).toBe(Date.UTC(2026, 0, 31, 5, 0));
  });

  it('prefers a zone in the text over the default zone', () => {
    expect(parseUntil('2026-01-31 14:30 UTC', 'Asia/Kolkata')).toBe(Date.UTC(2026, 0, 31, 14, 30));
  });

  it.each([
    ['UTC', Date.UTC(2026, 0, 31, 14, 30)],
    ['GMT', Date.UTC(2026, 0, 31, 14, 30)],
    ['Z', Date.UTC(2026, 0, 31, 14, 30)],
    ['utc', Date.UTC(2026, 0, 31, 14, 30)],
    ['+05:30', Date.UTC(2026, 0, 31, 9, 0)],
    ['-0800', Date.UTC(2026, 0, 31, 22, 30)],
    ['+02', Date.UTC(2026, 0, 31, 12, 30)],
    ['GMT+05:30', Date.UTC(2026, 0, 31, 9, 0)],
    ['UTC-8', Date.UTC(2026, 0, 31, 22, 30)],
    ['EST', Date.UTC(2026, 0, 31, 19, 30)],
    ['PDT', Date.UTC(2026, 0, 31, 21, 30)],
    ['Asia/Kolkata', Date.UTC(2026, 0, 31, 9, 0)],
  ])('reads the zone %s', (zone, expected) => {
    expect(parseUntil(`2026-01-31 14:30 ${zone}`)).toBe(expected);
  });

  it('applies daylight saving time for IANA zones', () => {
    expect(parseUntil('2026-01-15 12:00 America/New_York')).toBe(Date.UTC(2026, 0, 15, 17, 0));
    expect(parseUntil('2026-07-15 12:00 America/New_York')).toBe(Date.UTC(2026, 6, 15, 16, 0));
    expect(parseUntil('2026-07-15 12:00 Europe/London')).toBe(Date.UTC(2026, 6, 15, 11, 0));
  });

  it('uses the new offset right after a daylight saving change', () => {
    // New York moves to EDT at 2026-03-08 02:00 local.
    expect(parseUntil('2026-03-08 01:59 America/New_York')).toBe(Date.UTC(2026, 2, 8, 6, 59));
    expect(parseUntil('2026-03-08 03:00 America/New_York')).toBe(Date.UTC(2026, 2, 8, 7, 0));
  });

  it('moves a wall time in a spring-forward gap forward by the gap', () => {
    // 02:30 does not exist in New York on 2026-03-08; it reads as 03:30 EDT.
    expect(parseUntil('2026-03-08 02:30 America/New_York')).toBe(Date.UTC(2026, 2, 8, 7, 30));
  });

  it('reads an ambiguous fall-back wall time with the earlier, summer offset', () => {
    // 01:30 happens twice in New York on 2026-11-01: first at EDT (05:30Z), then at EST (06:30Z).
    expect(parseUntil('2026-11-01 01:30 America/New_York')).toBe(Date.UTC(2026, 10, 1, 5, 30));
  });

  it('reads zones east of UTC across their daylight saving change', () => {
    // Berlin moves to CEST at 2026-03-29 02:00 local (01:00Z).
    expect(parseUntil('2026-03-29 01:59 Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 0, 59));
    expect(parseUntil('2026-03-29 03:00 Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 1, 0));
    expect(parseUntil('2026-03-29 02:30 Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 1, 30));
  });

  it('accepts leap days in leap years', () => {
    expect(parseUntil('2028-02-29')).toBe(Date.UTC(2028, 1, 29));
  });

  it.each([
    ['', 'unrecognised format'],
    ['tomorrow', 'unrecognised format'],
    ['2026/01/31', 'unrecognised format'],
    ['2026-01-31T14:30', 'unrecognised format'],
    ['2026-01-31 14:30:15', 'unrecognised format'],
    ['2026-01-31 14:30 UTC extra', 'unrecognised format'],
    ['2026-02-30', 'no such date or time'],
    ['2027-02-29', 'no such date or time'],
    ['2026-13-01', 'no such date or time'],
    ['2026-01-31 24:00', 'no such date or time'],
    ['2026-01-31 12:60', 'no such date or time'],
    ['2026-01-31 12:00 Mars/Olympus', "unknown time zone 'Mars/Olympus'"],
    ['2026-01-31 12:00 +19:00', "unknown time zone '+19:00'"],
    ['2026-01-31 12:00 +05:75', "unknown time zone '+05:75'"],
  ])('rejects %j', (text, why) => {
    expect(() => parseUntil(text)).toThrow(`Invalid until '${text}': ${why}`);
  });

  it('rejects an unknown default zone', () => {
    expect(() => parseUntil('2026-01-31', 'Nowhere/City')).toThrow("unknown time zone 'Nowhere/City'");
  });
});
