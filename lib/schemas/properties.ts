/**
 * The schema registry's properties (lib/schemas). Declared beside the code that reads them;
 * lib/config/properties.ts gathers every capability's into the one property table.
 */
import { int, type PropertySpec, str } from '../config/property-spec.ts';

export const SCHEMAS_PROPERTIES = [
  {
    name: 'service.app.schema-cache.ttl',
    type: { kind: 'duration' },
    default: 0,
    description:
      'Schema read cache TTL: seconds, or with a unit (500ms, 30s, 5m, 1h); 0 disables it. Also how long other nodes may serve a changed schema',
  },
  {
    name: 'service.app.schema-cache.max-size',
    type: int(1),
    default: 1000,
    description: 'Cached schema entries; by-version and latest-by-name lookups count separately',
  },
  {
    name: 'service.db.type',
    type: str,
    description:
      'Database type of a Conductor deployment this configuration came from; a wide-column type (cassandra, scylla...) cannot keep schemas and stops the start (docs/api.md "Schema registry" rule 7)',
  },
] as const satisfies readonly PropertySpec[];
