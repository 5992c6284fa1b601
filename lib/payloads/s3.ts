/**
 * Payload store on S3: the stack's files bucket, under the `payloads/` prefix (the functions that
 * read and write runs are granted exactly that prefix, infra/stack.ts). Clients upload and
 * download large payloads straight to S3 through presigned URLs, never through the API.
 *
 * Reclaiming (the payload sweep, sweep.ts) does not delete: it tags the object
 * UNREFERENCED_TAG, and the bucket's lifecycle rule (infra/constructs/data.ts) expires tagged
 * objects under `payloads/`. S3 has no delete conditional on an object's age (If-Match compares
 * ETags, equal for equal content, and content keys are named by their content), but a tag belongs
 * to the object written: a PutObject of the key, by a run that needs the payload again, makes a new
 * object without the tag, which the rule leaves alone. A write that lands between the listing and
 * the tag is caught by reading the object back after tagging: written since, it is untagged again.
 */
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { isPayloadKey, PAYLOAD_PREFIX, UNREFERENCED_TAG } from './keys.ts';
import type { PayloadOperation, PayloadStore, StoredPayload } from './ports.ts';

export class S3PayloadStore implements PayloadStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, json: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: PAYLOAD_PREFIX + key,
        Body: json,
        ContentType: 'application/json',
      }),
    );
  }

  async get(key: string): Promise<string | undefined> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: PAYLOAD_PREFIX + key }),
      );
      return (await object.Body?.transformToString('utf-8')) ?? '';
    } catch (error) {
      // The role may not list the bucket (infra/constructs/data.ts), and without s3:ListBucket S3
      // answers a missing key with 403 rather than 404: here both mean absent. A role lacking the
      // grant altogether still fails loudly, on its first put.
      const name = (error as { name?: string }).name;
      if (error instanceof NoSuchKey || name === 'NoSuchKey' || name === 'AccessDenied') return undefined;
      throw error;
    }
  }

  presign(key: string, operation: PayloadOperation, expiresIn: number): Promise<string> {
    const target = { Bucket: this.bucket, Key: PAYLOAD_PREFIX + key };
    // No ContentType is signed for uploads: clients send whatever their HTTP library sets, and a
    // signed content type the client does not repeat would make S3 refuse the upload.
    const command = operation === 'WRITE' ? new PutObjectCommand(target) : new GetObjectCommand(target);
    return getSignedUrl(this.client, command, { expiresIn });
  }

  /** Every object under `payloads/` named as a payload key, with its LastModified (only the sweep lists). */
  async *list(): AsyncIterable<StoredPayload> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: PAYLOAD_PREFIX, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(PAYLOAD_PREFIX.length);
        if (key === undefined || !isPayloadKey(key) || object.LastModified === undefined) continue;
        yield { key, writtenAt: toSecond(object.LastModified) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Tags the object for the lifecycle rule, unless it was written since `writtenAt`. */
  async reclaim(key: string, writtenAt: number): Promise<boolean> {
    if ((await this.writtenAt(key)) !== writtenAt) return false;
    if (!(await this.tag(key, [UNREFERENCED_TAG]))) return false;
    // Written between the check and the tag, the new object carries the tag: take it off again.
    // Written after the tag, the new object has none.
    if ((await this.writtenAt(key)) === writtenAt) return true;
    await this.tag(key, []);
    return false;
  }

  /** The object's LastModified, or undefined when it is gone. */
  private async writtenAt(key: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: PAYLOAD_PREFIX + key }),
      );
      return head.LastModified && toSecond(head.LastModified);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Sets the object's tags; false when it is gone. */
  private async tag(key: string, tags: { Key: string; Value: string }[]): Promise<boolean> {
    try {
      await this.client.send(
        new PutObjectTaggingCommand({
          Bucket: this.bucket,
          Key: PAYLOAD_PREFIX + key,
          Tagging: { TagSet: tags },
        }),
      );
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}

/**
 * A LastModified to the second: HeadObject gives it to the second (an HTTP date), a listing may
 * give milliseconds, and the two must compare equal for one write.
 */
function toSecond(date: Date): number {
  return Math.floor(date.getTime() / 1000) * 1000;
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return (
    error instanceof NoSuchKey || error instanceof NotFound || name === 'NoSuchKey' || name === 'NotFound'
  );
}

/** The store over the bucket, with a client of the SDK's default region and credentials. */
export function s3PayloadStore(bucket: string): S3PayloadStore {
  return new S3PayloadStore(new S3Client({}), bucket);
}
