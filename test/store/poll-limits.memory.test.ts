/** The poll limit store contract against the in-memory adapter. */
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { pollLimitStoreContract } from './poll-limits.contract.ts';

pollLimitStoreContract('memory', async () => {
  const stores = createMemoryStores();
  return { stores, cleanup: () => stores.close() };
});
