// Lambda entry for the system-task consumer: carries out HTTP tasks off the decider
// (lib/jobs/system-tasks.ts).
import { consumerHandler } from '../lib/runtime/aws.ts';

export const handler = consumerHandler('system-tasks');
