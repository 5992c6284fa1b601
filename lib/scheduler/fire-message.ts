/**
 * The message of the scheduler's `schedules` work queue (its consumer: schedule-fire.ts), as sent
 * on the wire, and its decoder.
 */

/**
 * One fire of a schedule: which schedule, by which of its cron expressions (and zone), at which
 * scheduled second. The three name the fire's execution id, so a duplicate starts nothing twice.
 */
export interface ScheduleFireMessage {
  scheduleName: string;
  cronExpression: string;
  zoneId: string;
  scheduledTime: number;
}

/** A schedule fire from its parsed body; undefined when a field is missing or mistyped. */
export function decodeScheduleFireMessage(body: unknown): ScheduleFireMessage | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { scheduleName, cronExpression, zoneId, scheduledTime } = body as Partial<
    Record<keyof ScheduleFireMessage, unknown>
  >;
  if (typeof scheduleName !== 'string' || scheduleName === '') return undefined;
  if (typeof cronExpression !== 'string' || typeof zoneId !== 'string') return undefined;
  if (typeof scheduledTime !== 'number' || !Number.isSafeInteger(scheduledTime)) return undefined;
  return { scheduleName, cronExpression, zoneId, scheduledTime };
}
