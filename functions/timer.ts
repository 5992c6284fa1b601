// Lambda entry for the timer consumer: forwards due wake-ups to the decision queue (lib/runtime/aws-consumers.ts).
import { timerHandler } from '../lib/runtime/aws.ts';

export const handler = timerHandler();
