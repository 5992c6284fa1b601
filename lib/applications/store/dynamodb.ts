/**
 * DynamoDB adapter of the applications store, in its own table (applications capability).
 *
 * applications (on-demand; point-in-time recovery):
 *   application  pk = "APP#<id>"     sk = "APP"   rev (N), createTime (N), body (the record, keys
 *                                                  and their hashes included, as a JSON string)
 *   key pointer  pk = "KEY#<keyId>"  sk = "KEY"   applicationId
 *   - one application: GetItem, consistent. This is the token check of every request made with a
 *     stored key's token: one strongly consistent read of about 1 KB (one read unit).
 *   - a new application: PutItem on attribute_not_exists(pk).
 *   - a change: PutItem on rev = the revision read. Pointers of keys the record gains are written
 *     first and those of keys it lost are deleted after, so a crash between the two leaves at most a
 *     pointer to an application that does not hold the key; findByKey reads the application and
 *     checks, so such a pointer finds nothing (no transactions: dynalite, the test and local
 *     DynamoDB, has none).
 *   - delete: DeleteItem on rev, then the pointers of its keys.
 *   - by key: GetItem the pointer, then the application.
 *   - every application: Scan (consistent; applications are few and listing is an admin read).
 *   Ids are generated (UUIDs); a caller's id is only ever read, so any string up to the router's
 *   limits fits a key.
 */
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, putIfAbsent, putIfRevision, translate } from '../../store/dynamodb/errors.ts';
import { batchDelete, batchPut, scanAll } from '../../store/dynamodb/paging.ts';
import type { ApplicationRecord } from '../model.ts';
import type { ApplicationStore } from '../ports.ts';

const appKey = (id: string) => ({ pk: `APP#${id}`, sk: 'APP' });
const pointerKey = (keyId: string) => ({ pk: `KEY#${keyId}`, sk: 'KEY' });
const itemOf = (record: ApplicationRecord) => ({
  ...appKey(record.id),
  rev: record.revision,
  createTime: record.createTime,
  body: JSON.stringify(record),
});
const recordOf = (item: Record<string, unknown>): ApplicationRecord =>
  JSON.parse(String(item.body)) as ApplicationRecord;

export class DynamoApplicationStore implements ApplicationStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  create(record: ApplicationRecord): Promise<boolean> {
    return this.pointTo(record, []).then(() =>
      putIfAbsent(this.client, this.table, itemOf(record), 'application create'),
    );
  }

  async get(id: string): Promise<ApplicationRecord | undefined> {
    const result = await this.client
      .send(new GetCommand({ TableName: this.table, Key: appKey(id), ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'application get'));
    return result.Item ? recordOf(result.Item) : undefined;
  }

  async list(): Promise<ApplicationRecord[]> {
    const items = await scanAll(
      this.client,
      {
        TableName: this.table,
        ConsistentRead: true,
        FilterExpression: 'sk = :app',
        ExpressionAttributeValues: { ':app': 'APP' },
      },
      'application list',
    );
    return items.map(recordOf).sort((a, b) => a.createTime - b.createTime || (a.id < b.id ? -1 : 1));
  }

  async replace(record: ApplicationRecord, expected: number): Promise<boolean> {
    const before = await this.get(record.id);
    if (before?.revision !== expected) return false;
    await this.pointTo(record, before.keys);
    if (!(await putIfRevision(this.client, this.table, itemOf(record), expected, 'application replace')))
      return false;
    const kept = new Set(record.keys.map((key) => key.id));
    await this.unpoint(before.keys.filter((key) => !kept.has(key.id)).map((key) => key.id));
    return true;
  }

  async delete(id: string): Promise<boolean> {
    const before = await this.get(id);
    if (!before) return false;
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.table,
          Key: appKey(id),
          ConditionExpression: 'rev = :expected',
          ExpressionAttributeValues: { ':expected': before.revision },
        }),
      );
    } catch (error) {
      // Changed since it was read: delete what it is now.
      if (isConditionFailure(error)) return this.delete(id);
      translate(error, 'application delete');
    }
    await this.unpoint(before.keys.map((key) => key.id));
    return true;
  }

  async findByKey(keyId: string): Promise<ApplicationRecord | undefined> {
    const pointer = await this.client
      .send(new GetCommand({ TableName: this.table, Key: pointerKey(keyId), ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'application key lookup'));
    const applicationId = pointer.Item?.applicationId;
    if (typeof applicationId !== 'string') return undefined;
    const record = await this.get(applicationId);
    return record?.keys.some((key) => key.id === keyId) ? record : undefined;
  }

  /** Writes the pointers of the keys a record holds that `before` did not. */
  private async pointTo(record: ApplicationRecord, before: ApplicationRecord['keys']): Promise<void> {
    const had = new Set(before.map((key) => key.id));
    const added = record.keys.filter((key) => !had.has(key.id));
    await batchPut(
      this.client,
      this.table,
      added.map((key) => ({ ...pointerKey(key.id), applicationId: record.id })),
      'application key pointers',
    );
  }

  private async unpoint(keyIds: readonly string[]): Promise<void> {
    await batchDelete(this.client, this.table, keyIds.map(pointerKey), 'application key pointers');
  }
}
