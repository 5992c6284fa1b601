// Lambda entry for the search indexer: the executions table's stream into OpenSearch
// (lib/jobs/search-indexer.ts).
import { searchIndexer } from '../lib/jobs/search-indexer.ts';
import { openSearchIndexFrom } from '../lib/runtime/aws-adapters/opensearch.ts';
import { streamConsumerHandler } from '../lib/runtime/aws-streams.ts';

export const handler = streamConsumerHandler(searchIndexer, { index: openSearchIndexFrom });
