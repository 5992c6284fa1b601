/**
 * The raw content routes of the `service` backend (docs/api.md "File API": PUT and GET
 * /api/files/content/{workflowId}/{fileId}): one request each, streamed to and from the backend's
 * directory. With signing on, the URL's signature is checked first (403 invalid or expired, 405
 * for the other operation); then the file (404), the caller (owner to upload, family to
 * download: 403) and the state (upload while UPLOADING else 409, download once UPLOADED else 400).
 */
import type { Clock } from '../model/clock.ts';
import type { DirectoryBackend } from './backends/directory.ts';
import { contentPath } from './backends/directory.ts';
import type { FileService } from './service.ts';
import { requireUploading } from './service.ts';
import type { ContentOp, UrlSigner } from './signing.ts';

export interface Download {
  contentType: string;
  size: number;
  open: () => import('node:stream').Readable;
}

export class ContentTransfer {
  constructor(
    private readonly files: FileService,
    private readonly directory: DirectoryBackend,
    private readonly signer: UrlSigner,
    private readonly clock: Clock,
  ) {}

  async upload(
    workflowId: string,
    fileId: string,
    query: URLSearchParams,
    body: AsyncIterable<Uint8Array>,
    declaredLength: number | undefined,
  ): Promise<void> {
    this.verify(query, 'upload', workflowId, fileId);
    requireUploading(await this.files.owned(workflowId, fileId));
    // Completed while the bytes were arriving: they must not replace what was confirmed.
    await this.directory.write(fileId, body, declaredLength, async () =>
      requireUploading(await this.files.find(fileId)),
    );
  }

  async download(workflowId: string, fileId: string, query: URLSearchParams): Promise<Download> {
    this.verify(query, 'download', workflowId, fileId);
    const record = await this.files.downloadable(workflowId, fileId);
    const stored = await this.directory.read(fileId);
    if (!stored) throw new Error(`File ${fileId} is UPLOADED but its content is missing from the directory`);
    return { contentType: record.contentType, size: record.fileSize ?? stored.size, open: stored.open };
  }

  private verify(query: URLSearchParams, op: ContentOp, workflowId: string, fileId: string): void {
    if (this.signer.enabled) this.signer.verify(query, op, contentPath(workflowId, fileId), this.clock.now());
  }
}
