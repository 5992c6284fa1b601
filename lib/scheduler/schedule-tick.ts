/**
 * The scheduler's tick, every minute (gate `scheduler`): reads the schedules due before the next
 * tick from the next-run index and sends one `schedules` message per fire time, delayed to its
 * second (lib/scheduler/dispatcher.ts). One EventBridge rule for every schedule, never a rule per
 * schedule (a bus takes 300). At a local start (catch-up) it re-sends every active schedule's
 * current window: the delayed fires the last process held in memory died with it, and duplicates
 * start nothing (exactly once per scheduled time).
 */

import type { PeriodicJob } from '../jobs/types.ts';
import { DEFINITIONS_TABLE } from '../store/dynamodb/tables.ts';
import type { ScheduleDispatcher, TickResult } from './dispatcher.ts';
import { SCHEDULES_TABLE } from './tables.ts';

/** What the scheduler's tick and fire consumer work with (schedulerCapability.provides). */
export interface SchedulerDeps {
  scheduler: ScheduleDispatcher;
}

export const scheduleTick: PeriodicJob<SchedulerDeps, TickResult> = {
  readsProvided: true,
  name: 'schedule-tick',
  summary: 'sends the schedule fires due before the next tick, delayed to their second',
  every: '1 minute',
  gate: 'scheduler',
  timeoutSeconds: 55,
  run: (deps, now, { catchUp }) => {
    return deps.scheduler.tick(now, { resend: catchUp });
  },
  grants: {
    tables: [
      { table: SCHEDULES_TABLE, access: 'readWrite' },
      { table: DEFINITIONS_TABLE, access: 'read' },
    ],
    sends: ['schedules'],
  },
};
