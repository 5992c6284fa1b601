// The one way the UI writes times and durations.
import { describe, expect, it } from 'vitest';
import {
  durationBetween,
  formatClock,
  formatDateTime,
  formatDateTimeInZone,
  formatDuration,
} from '../../../ui/src/logic/time.ts';

describe('UI time formatting', () => {
  it('writes a time as year-first with milliseconds, from epoch ms or ISO alike', () => {
    const ms = new Date(2026, 10, 27, 9, 5, 3, 42).getTime();
    expect(formatDateTime(ms)).toBe('2026-11-27 09:05:03.042');
    expect(formatDateTime(new Date(ms).toISOString())).toBe('2026-11-27 09:05:03.042');
  });

  it('writes the time of day alone as the full format writes it', () => {
    expect(formatClock(new Date(2026, 10, 27, 9, 5, 3, 42).getTime())).toBe('09:05:03');
  });

  it('writes a missing or unreadable time as a dash', () => {
    for (const value of [undefined, null, 0, '', 'not a date']) expect(formatDateTime(value)).toBe('—');
  });

  it('writes durations from milliseconds to days', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(2_400)).toBe('2.40 s');
    expect(formatDuration(12_345)).toBe('12.3 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
    expect(formatDuration(90_000_000)).toBe('1 d 01 h');
    expect(formatDuration(-1)).toBe('—');
    expect(formatDuration(undefined)).toBe('—');
  });

  it('measures a running span to now and an ended one to its end', () => {
    expect(durationBetween(1_000, 4_000)).toBe(3_000);
    expect(durationBetween(1_000, undefined, 2_500)).toBe(1_500);
    expect(durationBetween(undefined, 4_000)).toBeUndefined();
    expect(durationBetween('1970-01-01T00:00:01.000Z', '1970-01-01T00:00:02.500Z')).toBe(1_500);
  });

  it("writes a time in a schedule's zone in the same format, the zone named", () => {
    const ms = Date.UTC(2026, 10, 27, 21, 30, 0, 5);
    expect(formatDateTimeInZone(ms, 'Asia/Tokyo')).toBe('2026-11-28 06:30:00.005 GMT+9');
    expect(formatDateTimeInZone(ms, 'UTC')).toBe('2026-11-27 21:30:00.005 UTC');
    expect(formatDateTimeInZone(Date.UTC(2026, 0, 1, 0, 0), 'UTC')).toBe('2026-01-01 00:00:00.000 UTC');
    expect(formatDateTimeInZone(ms, 'Not/AZone')).toBe(formatDateTime(ms));
  });
});
