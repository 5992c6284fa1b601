/**
 * The S3 file backends (adapter: the only file of lib/files importing the S3 SDK). store-a is
 * Amazon S3, store-b an S3-compatible endpoint with multipart, store-c an S3-compatible endpoint
 * with a single presigned PUT. Clients move bytes straight to and from the store with presigned
 * URLs; the service only signs, checks and records. Objects are `<prefix><fileId>`.
 *
 * Upload-complete checks the object exists (HeadObject: its size) and reads it once through
 * SHA-256, so the recorded hash is of the stored bytes whatever the client claimed.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ServiceConfig } from '../../config/service-config.ts';
import type { Clock } from '../../model/clock.ts';
import { NotFoundError, ValidationError } from '../../model/errors.ts';
import { type FileRecord, isFileId } from '../model.ts';
import type { FileBackend, IssuedUrl, StoredObject } from '../ports.ts';

/** getSignedUrl's command type: one type parameter per command, so the three are cast to it. */
type Presignable = Parameters<typeof getSignedUrl>[1];

export type S3Store = 'store-a' | 'store-b' | 'store-c';

export interface S3BackendOptions {
  client: S3Client;
  bucket: string;
  prefix: string;
  multipart: boolean;
  urlLifetimeMs: number;
  clock: Clock;
}

/** The client and bucket of `service.file-storage.<store>.*`. */
export function s3BackendOf(store: S3Store, config: ServiceConfig, urlLifetimeMs: number, clock: Clock) {
  const p = `service.file-storage.${store}` as const;
  const bucket = config.string(`${p}.bucket`);
  if (!bucket) throw new Error(`Property ${p}.bucket is not set (service.file-storage.type=${store})`);
  const endpoint = config.string(`${p}.endpoint`);
  if (store !== 'store-a' && !endpoint) {
    throw new Error(
      `Property ${p}.endpoint is not set (service.file-storage.type=${store} is S3-compatible)`,
    );
  }
  const accessKeyId = config.string(`${p}.access-key-id`);
  const secretAccessKey = config.string(`${p}.secret-access-key`);
  const client = new S3Client({
    region: config.requireString(`${p}.region`),
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: config.boolean(`${p}.path-style`),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
  });
  return new S3Backend({
    client,
    bucket,
    prefix: config.requireString(`${p}.prefix`),
    multipart: store !== 'store-c',
    urlLifetimeMs,
    clock,
  });
}

export class S3Backend implements FileBackend {
  readonly multipart: boolean;

  constructor(private readonly options: S3BackendOptions) {
    this.multipart = options.multipart;
  }

  uploadUrl(record: FileRecord): Promise<IssuedUrl> {
    // No ContentType is signed: a client sending another (or none) would be refused by S3. The
    // type served on download comes from the record (ResponseContentType).
    return this.presign(new PutObjectCommand(this.target(record.fileId)) as Presignable);
  }

  downloadUrl(record: FileRecord): Promise<IssuedUrl> {
    return this.presign(
      new GetObjectCommand({
        ...this.target(record.fileId),
        ResponseContentType: record.contentType,
      }) as Presignable,
    );
  }

  async inspect(fileId: string): Promise<StoredObject | undefined> {
    const { client } = this.options;
    try {
      await client.send(new HeadObjectCommand(this.target(fileId)));
    } catch (error) {
      // The stack's role may not list the bucket, and without s3:ListBucket S3 answers a missing
      // key's HEAD with 403 rather than 404: both mean nothing was uploaded (a role lacking
      // s3:GetObject altogether still fails loudly, on the download).
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (isMissing(error) || status === 403) return undefined;
      throw error;
    }
    const object = await client.send(new GetObjectCommand(this.target(fileId)));
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of object.Body as Readable) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { size, sha256: hash.digest('hex') };
  }

  async initiateMultipart(fileId: string, contentType: string): Promise<string> {
    const created = await this.options.client.send(
      new CreateMultipartUploadCommand({ ...this.target(fileId), ContentType: contentType }),
    );
    if (!created.UploadId)
      throw new Error('The object store answered a multipart initiate without an UploadId');
    return created.UploadId;
  }

  partUrl(fileId: string, uploadId: string, partNumber: number): Promise<IssuedUrl> {
    return this.presign(
      new UploadPartCommand({
        ...this.target(fileId),
        UploadId: uploadId,
        PartNumber: partNumber,
      }) as unknown as Presignable,
    );
  }

  async completeMultipart(fileId: string, uploadId: string, partETags: readonly string[]): Promise<void> {
    try {
      await this.options.client.send(
        new CompleteMultipartUploadCommand({
          ...this.target(fileId),
          UploadId: uploadId,
          MultipartUpload: { Parts: partETags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
        }),
      );
    } catch (error) {
      if (isMissing(error)) throw new NotFoundError(`File ${fileId} has no such multipart upload`);
      // S3 answers wrong or missing parts with InvalidPart / InvalidPartOrder / EntityTooSmall.
      const name = (error as { name?: string }).name ?? '';
      if (/^(InvalidPart|InvalidPartOrder|EntityTooSmall|MalformedXML)$/.test(name)) {
        throw new ValidationError(`The object store refused the parts of the multipart upload: ${name}`);
      }
      throw error;
    }
  }

  async abortMultipart(fileId: string, uploadId: string): Promise<void> {
    try {
      await this.options.client.send(
        new AbortMultipartUploadCommand({ ...this.target(fileId), UploadId: uploadId }),
      );
    } catch (error) {
      // Already gone (aborted before, or cleaned up by the bucket's lifecycle rule): the goal holds.
      if (!isMissing(error)) throw error;
    }
  }

  private target(fileId: string) {
    if (!isFileId(fileId)) throw new Error('Refusing an object key from an unchecked id');
    return { Bucket: this.options.bucket, Key: `${this.options.prefix}${fileId}` };
  }

  private async presign(command: Presignable): Promise<IssuedUrl> {
    const expiresIn = Math.max(1, Math.floor(this.options.urlLifetimeMs / 1000));
    const expiresAt = this.options.clock.now() + expiresIn * 1000;
    return { url: await getSignedUrl(this.options.client, command, { expiresIn }), expiresAt };
  }
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return name === 'NotFound' || name === 'NoSuchKey' || name === 'NoSuchUpload' || status === 404;
}
