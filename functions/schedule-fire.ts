// Lambda entry for the schedule fire consumer: starts scheduled workflows (lib/jobs/schedule-fire.ts).
import { consumerHandler } from '../lib/runtime/aws.ts';

export const handler = consumerHandler('schedule-fire');
