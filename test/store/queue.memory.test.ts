/** The task queue and poll data contract against the in-memory adapters. */
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { queueStoreContract } from './queue.contract.ts';

queueStoreContract('memory', async () => {
  const stores = createMemoryStores();
  return { stores, cleanup: () => stores.close() };
});
