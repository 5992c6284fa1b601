// Lambda entry for the cleaner of expired runs: TTL removals on the executions table's stream
// (lib/jobs/expired-runs.ts).
import { expiredRuns } from '../lib/jobs/expired-runs.ts';
import { expiredRunRemoverFrom } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { streamConsumerHandler } from '../lib/runtime/aws-streams.ts';

export const handler = streamConsumerHandler(expiredRuns, { expiredRuns: expiredRunRemoverFrom });
