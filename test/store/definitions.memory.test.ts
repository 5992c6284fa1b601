/** The definition store contract against the in-memory adapter. */
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { definitionStoreContract } from './definitions.contract.ts';

definitionStoreContract('memory', async () => {
  const stores = createMemoryStores();
  return { stores, cleanup: () => stores.close() };
});
