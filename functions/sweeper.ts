// Lambda entry for the one-minute wake-up sweeper (lib/jobs/sweeper.ts).
import { jobHandler } from '../lib/runtime/aws.ts';

export const handler = jobHandler('sweeper');
