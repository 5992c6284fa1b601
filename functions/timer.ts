// Lambda entry for the timer consumer: forwards due wake-ups to the decision queue
// (lib/jobs/decision-consumers.ts).
import { consumerHandler } from '../lib/runtime/aws.ts';

export const handler = consumerHandler('timer');
