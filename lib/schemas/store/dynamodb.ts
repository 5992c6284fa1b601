/**
 * DynamoDB adapter of the schema store, in its own table (schemas capability).
 *
 * schemas (on-demand; point-in-time recovery):
 *   schema version  pk = "<name>"   sk = "V#<version, 10 digits>"
 *   attributes: name, version (N), body (the record as a JSON string: no nesting limit, no number
 *   marshalling surprises, one attribute to read).
 *   - one version: GetItem.  - latest of a name: Query pk, ScanIndexForward=false, Limit=1.
 *   - a new version: PutItem conditional on attribute_not_exists(pk) (the service retries at the
 *     next version when another save took it).  - all versions of a name: Query pk, then delete.
 *   - every schema: Scan (consistent; schemas are few and the listing is an admin/UI read).
 *   Names are at most 255 characters (lib/schemas/model.ts), inside the 2 KB key limit.
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { putIfAbsent, translate } from '../../store/dynamodb/errors.ts';
import { batchDelete, queryAll, scanAll } from '../../store/dynamodb/paging.ts';
import type { SchemaRecord } from '../model.ts';
import type { SchemaStore } from '../ports.ts';

const sortKey = (version: number) => `V#${String(version).padStart(10, '0')}`;
const keyOf = (name: string, version: number) => ({ pk: name, sk: sortKey(version) });
const bodyOf = (item: Record<string, unknown>): SchemaRecord => JSON.parse(String(item.body)) as SchemaRecord;
const itemOf = (record: SchemaRecord) => ({
  ...keyOf(record.name, record.version),
  name: record.name,
  version: record.version,
  body: JSON.stringify(record),
});

export class DynamoSchemaStore implements SchemaStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async put(record: SchemaRecord): Promise<void> {
    await this.client
      .send(new PutCommand({ TableName: this.table, Item: itemOf(record) }))
      .catch((e: unknown) => translate(e, 'schema put'));
  }

  create(record: SchemaRecord): Promise<boolean> {
    return putIfAbsent(this.client, this.table, itemOf(record), 'schema create');
  }

  async get(name: string, version?: number): Promise<SchemaRecord | undefined> {
    if (version !== undefined) {
      const result = await this.client
        .send(new GetCommand({ TableName: this.table, Key: keyOf(name, version), ConsistentRead: true }))
        .catch((e: unknown) => translate(e, 'schema get'));
      return result.Item ? bodyOf(result.Item) : undefined;
    }
    const page = await this.client
      .send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': name },
          ScanIndexForward: false,
          Limit: 1,
          ConsistentRead: true,
        }),
      )
      .catch((e: unknown) => translate(e, 'schema latest'));
    const item = page.Items?.[0];
    return item ? bodyOf(item) : undefined;
  }

  async list(): Promise<SchemaRecord[]> {
    const items = await scanAll(this.client, { TableName: this.table, ConsistentRead: true }, 'schema list');
    return items
      .map(bodyOf)
      .sort((a, b) => (a.name === b.name ? a.version - b.version : a.name < b.name ? -1 : 1));
  }

  async delete(name: string, version: number): Promise<boolean> {
    const result = await this.client
      .send(new DeleteCommand({ TableName: this.table, Key: keyOf(name, version), ReturnValues: 'ALL_OLD' }))
      .catch((e: unknown) => translate(e, 'schema delete'));
    return result.Attributes !== undefined;
  }

  async deleteAll(name: string): Promise<number> {
    const items = await queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': name },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
      },
      'schema versions',
    );
    await batchDelete(
      this.client,
      this.table,
      items.map((item) => ({ pk: item.pk, sk: item.sk })),
      'schema delete all',
    );
    return items.length;
  }
}
