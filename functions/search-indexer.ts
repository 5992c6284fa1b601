// Lambda entry for the search indexer: the executions table's stream into OpenSearch
// (lib/jobs/search-indexer.ts).
import { streamConsumerHandler } from '../lib/runtime/aws.ts';

export const handler = streamConsumerHandler('search-indexer');
