// Lambda entry for the daily payload sweep (lib/payloads/sweep.ts).
import { jobHandler } from '../lib/runtime/aws.ts';

export const handler = jobHandler('payload-sweep');
