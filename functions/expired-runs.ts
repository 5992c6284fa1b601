// Lambda entry for the cleaner of expired runs: TTL removals on the executions table's stream
// (lib/jobs/expired-runs.ts).
import { streamConsumerHandler } from '../lib/runtime/aws.ts';

export const handler = streamConsumerHandler('expired-runs');
