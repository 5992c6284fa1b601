/**
 * A client of the file API for workers (docs/api.md "File storage configuration" rule 5): upload a
 * path or a stream and get the raw handle `service://file/<id>`; download a handle to a path.
 * Workers call it explicitly on handle strings; nothing scans task inputs or outputs.
 *
 * - A stream is first buffered to a temporary file, so the upload can be repeated and its size is
 *   known, before the file record is created.
 * - The `service` backend takes the bytes in one proxied PUT; S3 backends take a presigned PUT,
 *   or above `multipartThreshold` (where the backend has multipart) presigned parts.
 * - A download writes a sibling temporary file and renames it over the destination only after a
 *   complete response: a cut-off transfer leaves the destination as it was.
 * Errors carry the server's status and message, never an URL (signed URLs are credentials).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rename, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export const HANDLE_PREFIX = 'service://file/';

export interface FileClientOptions {
  /** The service's base URL, e.g. `http://localhost:8080`. */
  serverUrl: string;
  /** The worker's workflow: the owner of uploads and the caller of downloads unless given per call. */
  workflowId?: string;
  /** Size in bytes from which S3 backends with multipart get parts (default 64 MiB, the server's default). */
  multipartThreshold?: number;
  /** Part size of multipart uploads (default 8 MiB; S3 needs at least 5 MiB but for the last part). */
  partSize?: number;
  fetch?: typeof fetch;
}

export interface UploadOptions {
  workflowId?: string;
  taskId?: string;
  fileName?: string;
  contentType?: string;
}

export class FileClientError extends Error {
  override name = 'FileClientError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const MULTIPART_BACKENDS = new Set(['STORE_A', 'STORE_B']);
const MIN_PART = 5 * 1024 * 1024;

export class FileClient {
  private readonly base: string;
  private readonly http: typeof fetch;

  constructor(private readonly options: FileClientOptions) {
    this.base = options.serverUrl.replace(/\/+$/, '');
    this.http = options.fetch ?? fetch;
  }

  /** Uploads a file (a path, or a stream buffered to a temporary file first); answers its handle. */
  async upload(
    source: string | Readable | AsyncIterable<Uint8Array>,
    options: UploadOptions = {},
  ): Promise<string> {
    const workflowId = this.workflowOf(options.workflowId);
    let buffered: string | undefined;
    try {
      let path: string;
      if (typeof source === 'string') {
        path = source;
      } else {
        buffered = await mkdtemp(join(tmpdir(), 'file-upload-'));
        path = join(buffered, 'content');
        await pipeline(source, createWriteStream(path));
      }
      const { size } = await stat(path);
      const created = await this.json<{ fileHandleId: string; uploadUrl: string; storageType: string }>(
        'POST',
        '/api/files',
        {
          workflowId,
          taskId: options.taskId,
          fileName: options.fileName ?? (typeof source === 'string' ? basename(source) : undefined),
          contentType: options.contentType,
        },
      );
      const fileId = created.fileHandleId.slice(HANDLE_PREFIX.length);
      const threshold = this.options.multipartThreshold ?? 64 * 1024 * 1024;
      if (
        created.storageType !== 'SERVICE' &&
        MULTIPART_BACKENDS.has(created.storageType) &&
        size >= threshold
      ) {
        await this.uploadParts(workflowId, fileId, path, size);
      } else {
        await this.put(created.uploadUrl, path, 0, size, created.storageType === 'SERVICE' ? 204 : 200);
        await this.json('POST', `/api/files/${enc(workflowId)}/${fileId}/upload-complete`);
      }
      return created.fileHandleId;
    } finally {
      if (buffered) await rm(buffered, { recursive: true, force: true });
    }
  }

  /** Downloads a handle's bytes to `destination`, replacing it only once every byte arrived. */
  async download(handle: string, destination: string, options: { workflowId?: string } = {}): Promise<void> {
    const workflowId = this.workflowOf(options.workflowId);
    if (!handle.startsWith(HANDLE_PREFIX)) throw new FileClientError('Not a file handle', 400);
    const fileId = handle.slice(HANDLE_PREFIX.length);
    const { downloadUrl } = await this.json<{ downloadUrl: string }>(
      'GET',
      `/api/files/${enc(workflowId)}/${enc(fileId)}/download-url`,
    );
    const response = await this.http(downloadUrl);
    if (!response.ok || !response.body) throw await failure(response, 'download');
    const declared = response.headers.get('content-length');
    const partial = join(dirname(destination), `.${basename(destination)}.${randomUUID()}.part`);
    try {
      let received = 0;
      await pipeline(
        Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>),
        async function* count(source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            received += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(partial, { flags: 'wx' }),
      );
      if (declared !== null && Number(declared) !== received) {
        throw new FileClientError(`Download ended after ${received} of ${declared} bytes`, 502);
      }
      await rename(partial, destination);
    } catch (error) {
      await unlink(partial).catch(() => undefined);
      throw error;
    }
  }

  private async uploadParts(workflowId: string, fileId: string, path: string, size: number): Promise<void> {
    const base = `/api/files/${enc(workflowId)}/${fileId}/multipart`;
    const { uploadId } = await this.json<{ uploadId: string }>('POST', base);
    try {
      const partSize = Math.max(this.options.partSize ?? 8 * 1024 * 1024, MIN_PART, Math.ceil(size / 10_000));
      const etags: string[] = [];
      for (let start = 0, part = 1; start < size; start += partSize, part += 1) {
        const { uploadUrl } = await this.json<{ uploadUrl: string }>(
          'GET',
          `${base}/${enc(uploadId)}/part/${part}`,
        );
        const sent = await this.put(uploadUrl, path, start, Math.min(partSize, size - start), 200);
        const etag = sent.headers.get('etag');
        if (!etag) throw new FileClientError(`The object store answered part ${part} without an ETag`, 502);
        etags.push(etag);
      }
      await this.json('POST', `${base}/${enc(uploadId)}/complete`, { partETags: etags });
    } catch (error) {
      await this.http(`${this.base}${base}/${enc(uploadId)}`, { method: 'DELETE' }).catch(() => undefined);
      throw error;
    }
  }

  /** PUTs `length` bytes of the file from `start`, streamed. */
  private async put(url: string, path: string, start: number, length: number, ok: number): Promise<Response> {
    const body =
      length === 0
        ? new Uint8Array()
        : (Readable.toWeb(
            createReadStream(path, { start, end: start + length - 1 }),
          ) as ReadableStream<Uint8Array>);
    const response = await this.http(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(length) },
      body,
      duplex: 'half',
    } as RequestInit);
    if (response.status !== ok && !response.ok) throw await failure(response, 'upload');
    await response.body?.cancel();
    return response;
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.http(`${this.base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw await failure(response, `${method} ${path.split('?')[0]}`);
    return (await response.json()) as T;
  }

  private workflowOf(given: string | undefined): string {
    const workflowId = given ?? this.options.workflowId;
    if (!workflowId) throw new FileClientError('A workflowId is required (the owner or caller)', 400);
    return workflowId;
  }
}

const enc = encodeURIComponent;

async function failure(response: Response, what: string): Promise<FileClientError> {
  const text = await response.text().catch(() => '');
  let message: string;
  try {
    message = String((JSON.parse(text) as { message?: unknown }).message);
  } catch {
    // An object store's XML error: only its code. S3 repeats the signature it was given in some
    // (SignatureDoesNotMatch), and signed URLs are credentials.
    message = /<Code>([A-Za-z]{1,64})<\/Code>/.exec(text)?.[1] ?? 'no details';
  }
  return new FileClientError(`File ${what} failed with HTTP ${response.status}: ${message}`, response.status);
}
