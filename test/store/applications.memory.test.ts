/** The applications store contract against the in-memory adapter. */
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { applicationStoreContract } from './applications.contract.ts';

applicationStoreContract('memory', async () => {
  const stores = createMemoryStores();
  return { stores, cleanup: () => stores.close() };
});
