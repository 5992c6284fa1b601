/**
 * The file API's rules (docs/api.md "File API", "File upload status", "Authentication" 4, the File
 * rows of "Errors"; docs/conductor-compat.md §7.2), over the record store and a byte backend. Every
 * operation looks the file up (404), checks the caller in the path against the owner (403), then
 * the state: download before UPLOADED is 400, a second complete or an upload after it is 409.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../model/clock.ts';
import { ConflictError, NotFoundError, quote, ValidationError } from '../model/errors.ts';
import type { RunStore } from '../store/ports.ts';
import { FileAccess } from './family.ts';
import { type FileRecord, handleOf, isFileId } from './model.ts';
import type { FileBackend, FileStore, UrlContext } from './ports.ts';

export interface CreateFileRequest {
  workflowId: string;
  taskId?: string;
  fileName?: string;
  contentType?: string;
}

export interface FileServiceDeps {
  files: FileStore;
  executions: Pick<RunStore, 'getWorkflow'>;
  backend: FileBackend;
  storageType: string;
  clock: Clock;
}

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export class FileService {
  readonly access: FileAccess;

  constructor(private readonly deps: FileServiceDeps) {
    this.access = new FileAccess(deps.executions);
  }

  get backend(): FileBackend {
    return this.deps.backend;
  }

  async create(request: CreateFileRequest, at: UrlContext) {
    const { files, executions, backend, clock, storageType } = this.deps;
    if (!(await executions.getWorkflow(request.workflowId))) {
      throw new NotFoundError(`No such workflow instance: ${quote(request.workflowId)}`);
    }
    const now = clock.now();
    const fileId = randomUUID();
    const record: FileRecord = {
      fileId,
      workflowId: request.workflowId,
      taskId: request.taskId,
      fileName: request.fileName ?? fileId,
      contentType: request.contentType ?? DEFAULT_CONTENT_TYPE,
      storageType,
      uploadStatus: 'UPLOADING',
      createdAt: now,
      updatedAt: now,
      rev: 1,
    };
    // Durable before acknowledged: the URL is handed out only once the record is stored.
    await files.create(record);
    const upload = await backend.uploadUrl(record, at);
    return {
      fileHandleId: handleOf(fileId),
      fileName: record.fileName,
      contentType: record.contentType,
      storageType,
      uploadStatus: record.uploadStatus,
      uploadUrl: upload.url,
      uploadUrlExpiresAt: upload.expiresAt,
      createdAt: now,
    };
  }

  /** A fresh upload URL (the first expired). Owner only, while UPLOADING. */
  async refreshUploadUrl(workflowId: string, fileId: string, at: UrlContext) {
    const record = await this.owned(workflowId, fileId);
    requireUploading(record);
    const upload = await this.deps.backend.uploadUrl(record, at);
    return { fileHandleId: handleOf(fileId), uploadUrl: upload.url, expiresAt: upload.expiresAt };
  }

  /** Confirms the upload: the stored bytes are checked, their size and hash recorded. Owner only. */
  async complete(workflowId: string, fileId: string) {
    const record = await this.owned(workflowId, fileId);
    requireUploading(record);
    const stored = await this.deps.backend.inspect(fileId);
    if (!stored)
      throw new ValidationError(`File ${fileId} has no uploaded content yet; upload it before completing`);
    const next: FileRecord = {
      ...record,
      uploadStatus: 'UPLOADED',
      fileSize: stored.size,
      contentHash: stored.sha256,
      uploadId: undefined,
      updatedAt: this.deps.clock.now(),
      rev: record.rev + 1,
    };
    await this.deps.files.update(next, record.rev);
    return completed(next);
  }

  /** The record as the metadata route shows it. Owner's family. */
  async metadata(workflowId: string, fileId: string) {
    const record = await this.readable(workflowId, fileId);
    return {
      fileHandleId: handleOf(fileId),
      fileName: record.fileName,
      contentType: record.contentType,
      fileSize: record.fileSize,
      contentHash: record.contentHash,
      storageType: record.storageType,
      uploadStatus: record.uploadStatus,
      workflowId: record.workflowId,
      taskId: record.taskId,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }

  /** A download URL. Owner's family, once UPLOADED. */
  async downloadUrl(workflowId: string, fileId: string, at: UrlContext) {
    const record = await this.downloadable(workflowId, fileId);
    const download = await this.deps.backend.downloadUrl(record, at);
    return { fileHandleId: handleOf(fileId), downloadUrl: download.url, expiresAt: download.expiresAt };
  }

  /** A record the caller may download: in the owner's family, and UPLOADED (else 400). */
  async downloadable(workflowId: string, fileId: string): Promise<FileRecord> {
    const record = await this.readable(workflowId, fileId);
    if (record.uploadStatus !== 'UPLOADED') {
      throw new ValidationError(
        `File ${fileId} is ${record.uploadStatus}; it can be downloaded once UPLOADED`,
      );
    }
    return record;
  }

  /** A record the caller owns (mutations). */
  async owned(workflowId: string, fileId: string): Promise<FileRecord> {
    const record = await this.find(fileId);
    this.access.requireOwner(workflowId, record.workflowId, fileId);
    return record;
  }

  /** The record as stored now (the content route re-checks it before committing bytes). */
  async find(fileId: string): Promise<FileRecord> {
    const record = isFileId(fileId) ? await this.deps.files.get(fileId) : undefined;
    if (!record) throw new NotFoundError(`No such file: ${quote(fileId)}`);
    return record;
  }

  private async readable(workflowId: string, fileId: string): Promise<FileRecord> {
    const record = await this.find(fileId);
    await this.access.requireFamily(workflowId, record.workflowId, fileId);
    return record;
  }

  /** Saves the open multipart upload id on the record (owner, UPLOADING). */
  async recordUpload(record: FileRecord, uploadId: string | undefined): Promise<void> {
    await this.deps.files.update(
      { ...record, uploadId, updatedAt: this.deps.clock.now(), rev: record.rev + 1 },
      record.rev,
    );
  }
}

export function requireUploading(record: FileRecord): void {
  if (record.uploadStatus !== 'UPLOADING') {
    throw new ConflictError(
      `File ${record.fileId} is ${record.uploadStatus}; its content can no longer change`,
    );
  }
}

export const completed = (record: FileRecord) => ({
  fileHandleId: handleOf(record.fileId),
  uploadStatus: record.uploadStatus,
  contentHash: record.contentHash,
});
