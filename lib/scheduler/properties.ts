/**
 * The scheduler's properties (lib/scheduler). Declared beside the code that reads them;
 * lib/config/properties.ts gathers every capability's into the one property table.
 */
import { bool, type PropertySpec, str } from '../config/property-spec.ts';

/** The property that switches the scheduler on. */
export const SCHEDULER_GATE = { scheduler: 'service.scheduler.enabled' } as const;

export const SCHEDULER_PROPERTIES = [
  {
    name: SCHEDULER_GATE.scheduler,
    type: bool,
    default: true,
    description: 'Scheduler routes and ticks (on by default, as in Conductor)',
  },
  {
    name: 'service.scheduler.schedulerTimeZone',
    type: str,
    default: 'UTC',
    description: 'Time zone of nextFewSchedules',
  },
  {
    name: 'service.scheduler.execution-retention',
    type: { kind: 'duration' },
    default: 30 * 86_400_000,
    description:
      'How long a schedule execution record is kept after its scheduled time (seconds, or with a unit: 30d); 0 keeps records forever',
  },
  {
    name: 'service.scheduler.admin.token',
    type: str,
    description:
      'Credential of the scheduler admin routes (X-Authorization or Authorization: Bearer); unset: they answer 403',
  },
] as const satisfies readonly PropertySpec[];
