// Lambda entry for the scheduler's one-minute tick (lib/jobs/schedule-tick.ts).
import { jobHandler } from '../lib/runtime/aws.ts';

export const handler = jobHandler('schedule-tick');
