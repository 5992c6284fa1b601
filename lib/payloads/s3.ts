/**
 * Payload store on S3: the stack's files bucket, under the `payloads/` prefix (the functions that
 * read and write runs are granted exactly that prefix, infra/stack.ts). Clients upload and
 * download large payloads straight to S3 through presigned URLs, never through the API.
 */
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PAYLOAD_PREFIX } from './keys.ts';
import type { PayloadOperation, PayloadStore } from './ports.ts';

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
}

/** The store over the bucket, with a client of the SDK's default region and credentials. */
export function s3PayloadStore(bucket: string): S3PayloadStore {
  return new S3PayloadStore(new S3Client({}), bucket);
}
