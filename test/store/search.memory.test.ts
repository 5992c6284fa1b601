/** The search reads contract against the in-memory adapter. */
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { searchContract } from './search.contract.ts';

searchContract('memory', async () => {
  const stores = createMemoryStores();
  return { stores, cleanup: () => stores.close() };
});
