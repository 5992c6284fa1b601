/**
 * Wall clocks of IANA time zones, through Intl: the local time of an instant in a zone, as the UTC
 * instant with the same calendar fields (whole seconds). One formatter per zone, made once.
 */

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** The zone's formatter, or undefined when Intl does not know the zone. */
function formatterOf(zone: string): Intl.DateTimeFormat | undefined {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      formatter = null;
    }
    formatters.set(zone, formatter);
  }
  return formatter ?? undefined;
}

/** Whether the zone is an IANA time zone the runtime knows (`UTC`, `Europe/Berlin`...). */
export const isKnownZone = (zone: string): boolean => zone.trim() !== '' && formatterOf(zone) !== undefined;

/**
 * The wall-clock time of instant `at` in `zone`, as the UTC instant with the same fields (to the
 * second); undefined for a zone Intl does not know.
 */
export function wallClock(at: number, zone: string): number | undefined {
  const formatter = formatterOf(zone);
  if (!formatter) return undefined;
  const fields: Record<string, number> = {};
  for (const part of formatter.formatToParts(at)) fields[part.type] = Number(part.value);
  return Date.UTC(
    fields.year ?? 0,
    (fields.month ?? 1) - 1,
    fields.day ?? 1,
    fields.hour ?? 0,
    fields.minute ?? 0,
    fields.second ?? 0,
  );
}
