/**
 * How the UI writes times: one format everywhere, the browser's own zone, millisecond resolution
 * (`2026-11-27 22:50:26.123`), and durations as Conductor users read them (`850 ms`, `2.4 s`,
 * `3 min 05 s`, `1 h 02 min`). A missing or zero time is an em dash.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A time from epoch ms or an ISO string, as `YYYY-MM-DD HH:mm:ss.SSS` in the browser's zone. */
export function formatDateTime(value: number | string | undefined | null): string {
  if (value === undefined || value === null || value === '' || value === 0) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
  );
}

/** The time of day alone (`22:50:26`), for "updated at" hints next to a full time. */
export function formatClock(value: number): string {
  return formatDateTime(value).slice(11, 19);
}

/** A span of milliseconds, short and readable; a negative or missing span is an em dash. */
export function formatDuration(ms: number | undefined | null): string {
  if (ms === undefined || ms === null || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${pad(seconds % 60)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
  return `${Math.floor(minutes / 1440)} d ${pad(Math.floor(minutes / 60) % 24)} h`;
}

/** The duration between a start and an end; a run still going is measured to `now`. */
export function durationBetween(
  start: number | string | undefined | null,
  end: number | string | undefined | null,
  now: number = Date.now(),
): number | undefined {
  const from = start ? new Date(start).getTime() : Number.NaN;
  if (!Number.isFinite(from) || from <= 0) return undefined;
  const to = end ? new Date(end).getTime() : now;
  return Number.isFinite(to) && to > 0 ? Math.max(0, to - from) : undefined;
}

/**
 * A time in a named zone (a schedule's), in the same format with the zone after it:
 * `2026-11-28 06:30:00.000 GMT+9`. An unknown zone falls back to the browser's, unlabelled.
 */
export function formatDateTimeInZone(ms: number, zoneId: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zoneId,
      timeZoneName: 'short',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
    }).formatToParts(new Date(ms));
  } catch {
    return formatDateTime(ms);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return (
    `${part('year')}-${part('month')}-${part('day')} ` +
    `${part('hour')}:${part('minute')}:${part('second')}.${part('fractionalSecond')} ${part('timeZoneName')}`
  );
}
