/**
 * docs/api.md "Schema registry" rule 7: schemas persist on relational and key-value backends; with a
 * wide-column database type configured the server does not start. This service keeps schemas in
 * DynamoDB or memory; `service.db.type` says what a migrated Conductor configuration ran on.
 */
import { ConfigError } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';

const WIDE_COLUMN = ['cassandra', 'scylla', 'scylladb', 'keyspaces', 'bigtable', 'hbase'];

/** Throws a ConfigError naming `service.db.type` when it is a wide-column type. */
export function assertSchemaStorage(config: ServiceConfig): void {
  const type = config.string('service.db.type');
  if (type !== undefined && WIDE_COLUMN.includes(type.trim().toLowerCase())) {
    throw new ConfigError(
      `Property service.db.type=${type} is a wide-column database, which cannot keep the schema registry; ` +
        'remove it or use a relational or key-value type (schemas are kept in service.store)',
    );
  }
}
