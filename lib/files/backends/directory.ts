/**
 * The `service` backend (docs/api.md "File storage configuration"): bytes in one directory
 * (`service.file-storage.service.directory`, shared by every node that serves content), sent and
 * fetched through the service's own content route, one request each, streamed to and from disk.
 * An upload is written to a temporary sibling and renamed into place when complete, so a reader
 * never sees half an object; an upload over `max-size` is refused (413) and its partial bytes
 * removed. Files are named by their checked id only: no client string ever becomes a path.
 */
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../model/clock.ts';
import { PayloadTooLargeError } from '../../model/errors.ts';
import { type FileRecord, isFileId } from '../model.ts';
import type { FileBackend, IssuedUrl, StoredObject, UrlContext } from '../ports.ts';
import type { ContentOp, UrlSigner } from '../signing.ts';

export interface DirectoryBackendOptions {
  directory: string;
  maxSize: number;
  urlLifetimeMs: number;
  /** Public origin of content URLs; else the request's. */
  baseUrl?: string;
  signer: UrlSigner;
  clock: Clock;
}

/** The decoded path of a file's content route; signatures cover it. */
export const contentPath = (workflowId: string, fileId: string): string =>
  `/api/files/content/${workflowId}/${fileId}`;

export class DirectoryBackend implements FileBackend {
  readonly multipart = false;

  constructor(private readonly options: DirectoryBackendOptions) {}

  uploadUrl(record: FileRecord, at: UrlContext): Promise<IssuedUrl> {
    return Promise.resolve(this.url('upload', record, at));
  }

  downloadUrl(record: FileRecord, at: UrlContext): Promise<IssuedUrl> {
    return Promise.resolve(this.url('download', record, at));
  }

  async inspect(fileId: string): Promise<StoredObject | undefined> {
    const path = this.pathOf(fileId);
    try {
      await stat(path);
    } catch {
      return undefined;
    }
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
    }
    return { size, sha256: hash.digest('hex') };
  }

  /**
   * Streams an upload to disk. `beforeCommit` runs once every byte is written and before the
   * object replaces any earlier one (the service re-checks the record's state there).
   */
  async write(
    fileId: string,
    body: AsyncIterable<Uint8Array>,
    declaredLength: number | undefined,
    beforeCommit: () => Promise<void>,
  ): Promise<void> {
    const { maxSize } = this.options;
    if (declaredLength !== undefined && declaredLength > maxSize) throw tooLarge(maxSize);
    await mkdir(this.options.directory, { recursive: true });
    const target = this.pathOf(fileId);
    const partial = `${target}.${randomUUID()}.part`;
    const out = createWriteStream(partial, { flags: 'wx' });
    try {
      let size = 0;
      await pipeline(
        body,
        async function* limit(source: AsyncIterable<Uint8Array>) {
          for await (const chunk of source) {
            size += chunk.length;
            if (size > maxSize) throw tooLarge(maxSize);
            yield chunk;
          }
        },
        out,
      );
      await beforeCommit();
      await rename(partial, target);
    } catch (error) {
      // A stream cut short may still be opening its file: removed once it has closed, or the file
      // would appear after the removal and stay.
      if (!out.closed) await once(out, 'close').catch(() => undefined);
      await unlink(partial).catch(() => undefined);
      throw error;
    }
  }

  /** The stored object's size and a reader of its bytes; undefined when absent. */
  async read(fileId: string): Promise<{ size: number; open: () => Readable } | undefined> {
    const path = this.pathOf(fileId);
    try {
      const { size } = await stat(path);
      return { size, open: () => createReadStream(path) };
    } catch {
      return undefined;
    }
  }

  private url(op: ContentOp, record: FileRecord, at: UrlContext): IssuedUrl {
    const { baseUrl, signer, urlLifetimeMs, clock } = this.options;
    const expiresAt = clock.now() + urlLifetimeMs;
    const encoded = `/api/files/content/${encodeURIComponent(record.workflowId)}/${record.fileId}`;
    const query = signer.enabled
      ? `?${signer.sign(op, contentPath(record.workflowId, record.fileId), expiresAt).toString()}`
      : '';
    return { url: `${baseUrl ?? at.origin}${encoded}${query}`, expiresAt };
  }

  private pathOf(fileId: string): string {
    // The service checks ids before they get here; this is the last line, not the only one.
    if (!isFileId(fileId)) throw new Error('Refusing a file path from an unchecked id');
    return join(this.options.directory, fileId);
  }
}

const tooLarge = (maxSize: number) =>
  new PayloadTooLargeError(`Upload exceeds service.file-storage.service.max-size (${maxSize} bytes)`);
