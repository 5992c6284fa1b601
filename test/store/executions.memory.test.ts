/** The execution store contract against the in-memory adapter. */
import { createMemoryStores } from '../../lib/store/memory/index.ts';
import { executionStoreContract } from './executions.contract.ts';

executionStoreContract('memory', async () => {
  const stores = createMemoryStores();
  return { stores, cleanup: () => stores.close() };
});
