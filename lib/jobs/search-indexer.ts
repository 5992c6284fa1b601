/**
 * The search indexer (`searchBackend=opensearch`): the executions table's change stream becomes
 * search documents, one per run and one per task row (lib/search/index-documents.ts), written to
 * the search index in stream order. Replaying a batch writes the same documents again, so the
 * stream's at-least-once delivery is harmless. Its function reads no table: the stream records
 * carry the new item images.
 */
import { indexOpsOf } from '../search/index-documents.ts';
import { EXECUTIONS_TABLE } from '../store/dynamodb/tables.ts';
import type { StreamConsumer } from './types.ts';

export const searchIndexer: StreamConsumer = {
  name: 'search-indexer',
  summary: 'indexes runs and tasks from the executions stream into OpenSearch',
  deployedWith: (choices) => choices.searchBackend === 'opensearch',
  table: EXECUTIONS_TABLE,
  batchSize: 100,
  retryAttempts: 10,
  deadLetters: {
    output: 'SearchIndexerDeadLetterQueueUrl',
    description: 'Stream batches the search indexer gave up on (records to re-index)',
  },
  timeoutSeconds: 60,
  async handle(changes, deps) {
    const ops = indexOpsOf(changes);
    await deps.index().write(ops);
    deps.logger.debug('indexed changes', { changes: changes.length, writes: ops.length });
  },
  grants: { tables: [], sends: [], search: 'readWrite' },
};
