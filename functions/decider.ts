// Lambda entry for the decider: consumes the SQS FIFO decision queue (lib/jobs/decision-consumers.ts).
import { consumerHandler } from '../lib/runtime/aws.ts';

export const handler = consumerHandler('decider');
