/** The schema store contract against the in-memory adapter. */
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { schemaStoreContract } from './schemas.contract.ts';

schemaStoreContract('memory', async () => {
  const stores = createMemoryStores();
  return { stores, cleanup: () => stores.close() };
});
