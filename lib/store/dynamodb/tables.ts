/**
 * DynamoDB table and key design, the single source for the CDK stack, the local embedded store and
 * the tests.
 *
 * definitions (one table, two item kinds; on-demand; point-in-time recovery):
 *   workflow def  pk = "WF#<name>"    sk = "V#<version, 10 digits>"   gsi1pk = "WF"    gsi1sk = "<name>#<version>"
 *   task def      pk = "TASK#<name>"  sk = "TASK"                      gsi1pk = "TASK"  gsi1sk = "<name>"
 *   attributes: name, version, body (the definition as a JSON string: no 32-level nesting limit,
 *   no number/set marshalling surprises, one attribute to read).
 *   - latest version of a name: Query pk, ScanIndexForward=false, Limit=1 (one read).
 *   - all versions of a name: Query pk.  - list everything of a kind: Query gsi1 on gsi1pk.
 *   Definitions are few (thousands) and written rarely, so one gsi1 partition per kind is fine.
 *
 * Every table names its TTL attribute `ttl` (epoch seconds). DynamoDB deletes expired items lazily
 * (up to 48 h) and dynalite never does, so readers that care filter `ttl < now` themselves.
 */

export interface TableSpec {
  /** Logical name; the physical name comes from configuration. */
  id: 'definitions';
  partitionKey: string;
  sortKey: string;
  indexes: { name: string; partitionKey: string; sortKey: string }[];
  ttlAttribute: string;
}

export const TTL_ATTRIBUTE = 'ttl';

export const TABLES: readonly TableSpec[] = [
  {
    id: 'definitions',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
    ttlAttribute: TTL_ATTRIBUTE,
  },
];

export type TableNames = Record<TableSpec['id'], string>;
