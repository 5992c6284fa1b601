/** The schema registry as the pickers read it (GET /api/schema?short=true, names and versions). */
import { api } from '../api/client.ts';
import { registryOf } from '../logic/schema-ref.ts';
import { useLoad } from './use-load.ts';

export function useRegistry() {
  return useLoad('registry', async () =>
    registryOf(await api('GET /api/schema', { query: { short: true } })),
  );
}
