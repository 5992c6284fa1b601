/**
 * DynamoDB adapter of the file records, in their own table (files capability).
 *
 * filerecords (on-demand; point-in-time recovery; id not `files`, which names the bucket's construct):
 *   file record  pk = "<fileId>"  sk = "F"
 *   attributes: body (the record as a JSON string), rev (N), workflowId.
 *   - read: consistent GetItem.  - create: PutItem conditional on attribute_not_exists(pk).
 *   - update: PutItem conditional on rev = the revision read, so two completes (or a complete and
 *     an abort) racing on one file cannot both win.
 *   File ids are service-minted UUIDs, so records spread evenly over partitions.
 */
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, VersionConflictError } from '../../model/errors.ts';
import { putIfAbsent, putIfRevision, translate } from '../../store/dynamodb/errors.ts';
import type { FileRecord } from '../model.ts';
import type { FileStore } from '../ports.ts';

const SORT_KEY = 'F';

const itemOf = (record: FileRecord) => ({
  pk: record.fileId,
  sk: SORT_KEY,
  rev: record.rev,
  workflowId: record.workflowId,
  body: JSON.stringify(record),
});

export class DynamoFileStore implements FileStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(record: FileRecord): Promise<void> {
    if (!(await putIfAbsent(this.client, this.table, itemOf(record), 'file create')))
      throw new ConflictError(`File ${record.fileId} already exists`);
  }

  async get(fileId: string): Promise<FileRecord | undefined> {
    const result = await this.client
      .send(
        new GetCommand({ TableName: this.table, Key: { pk: fileId, sk: SORT_KEY }, ConsistentRead: true }),
      )
      .catch((e: unknown) => translate(e, 'file get'));
    return result.Item ? (JSON.parse(String(result.Item.body)) as FileRecord) : undefined;
  }

  async update(record: FileRecord, expectedRev: number): Promise<void> {
    // Only the writer that read this revision may replace it (lost updates are impossible).
    if (!(await putIfRevision(this.client, this.table, itemOf(record), expectedRev, 'file update')))
      throw new VersionConflictError(
        `File ${record.fileId} changed concurrently (expected rev ${expectedRev})`,
      );
  }
}
