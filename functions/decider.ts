// Lambda entry for the decider: consumes the SQS FIFO decision queue (lib/runtime/aws-consumers.ts).
import { deciderHandler } from '../lib/runtime/aws.ts';

export const handler = deciderHandler();
