/** Retention of rows with a TTL over the in-memory adapters (which never delete on their own). */
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { retentionContract } from './retention.contract.ts';

retentionContract('memory', async () => {
  const stores = createMemoryStores();
  return { stores, cleanup: () => stores.close() };
});
