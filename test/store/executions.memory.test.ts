/** The execution store contract against the in-memory adapter. */
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { executionStoreContract } from './executions.contract.ts';

executionStoreContract('memory', async () => {
  const stores = createMemoryStores();
  return { stores, cleanup: () => stores.close() };
});
