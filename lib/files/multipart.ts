/**
 * Multipart uploads (docs/conductor-compat.md §7.2: initiate, part URL, complete with the part
 * ETags, abort), on backends that have them (store-a, store-b); elsewhere 400 (docs/api.md "File
 * API"). Owner only, while UPLOADING. The open upload's id is kept on the record, so a part URL,
 * complete or abort naming another id is a 404, and completing it reuses the single-upload
 * complete (the stored object is checked, its size and hash recorded).
 */
import { NotFoundError, quote, ValidationError } from '../model/errors.ts';
import { handleOf } from './model.ts';
import type { FileBackend } from './ports.ts';
import { type FileService, requireUploading } from './service.ts';

/** S3's limits: parts are numbered 1 to 10,000. */
export const MAX_PART_NUMBER = 10_000;

type MultipartBackend = Required<
  Pick<FileBackend, 'initiateMultipart' | 'partUrl' | 'completeMultipart' | 'abortMultipart'>
>;

export class MultipartUploads {
  constructor(private readonly files: FileService) {}

  async initiate(workflowId: string, fileId: string) {
    const record = await this.files.owned(workflowId, fileId);
    requireUploading(record);
    const backend = this.backend();
    const uploadId = await backend.initiateMultipart(fileId, record.contentType);
    await this.files.recordUpload(record, uploadId);
    return { fileHandleId: handleOf(fileId), uploadId };
  }

  async partUrl(workflowId: string, fileId: string, uploadId: string, partNumber: number) {
    await this.open(workflowId, fileId, uploadId);
    const url = await this.backend().partUrl(fileId, uploadId, partNumber);
    return { fileHandleId: handleOf(fileId), uploadUrl: url.url, expiresAt: url.expiresAt };
  }

  async complete(workflowId: string, fileId: string, uploadId: string, partETags: readonly string[]) {
    await this.open(workflowId, fileId, uploadId);
    await this.backend().completeMultipart(fileId, uploadId, partETags);
    return this.files.complete(workflowId, fileId);
  }

  async abort(workflowId: string, fileId: string, uploadId: string): Promise<void> {
    const record = await this.open(workflowId, fileId, uploadId);
    await this.backend().abortMultipart(fileId, uploadId);
    await this.files.recordUpload(record, undefined);
  }

  private async open(workflowId: string, fileId: string, uploadId: string) {
    const record = await this.files.owned(workflowId, fileId);
    this.backend();
    requireUploading(record);
    if (record.uploadId !== uploadId) {
      throw new NotFoundError(`File ${fileId} has no open multipart upload ${quote(uploadId)}`);
    }
    return record;
  }

  private backend(): MultipartBackend {
    const backend = this.files.backend;
    if (
      !backend.multipart ||
      !backend.initiateMultipart ||
      !backend.partUrl ||
      !backend.completeMultipart ||
      !backend.abortMultipart
    ) {
      throw new ValidationError('Multipart upload is not supported by the configured file storage backend');
    }
    return backend as MultipartBackend;
  }
}
