/**
 * The file record (docs/api.md "File record", "File upload status"): one file, owned by exactly one
 * workflow, addressed by the handle `service://file/<fileId>`. UPLOADING from creation until the
 * upload is confirmed, then UPLOADED with its real size and SHA-256 content hash.
 */
import { ValidationError } from '../model/errors.ts';

export type UploadStatus = 'UPLOADING' | 'UPLOADED';

/** The backends of `service.file-storage.type`. */
export const FILE_BACKENDS = ['service', 'store-a', 'store-b', 'store-c'] as const;
export type FileBackendType = (typeof FILE_BACKENDS)[number];

export interface FileRecord {
  fileId: string;
  /** The owner. */
  workflowId: string;
  taskId?: string;
  fileName: string;
  contentType: string;
  /** `SERVICE` for the service-managed backend, else the backend's name (`STORE_A`...). */
  storageType: string;
  uploadStatus: UploadStatus;
  /** Set when UPLOADED. */
  fileSize?: number;
  contentHash?: string;
  /** The open multipart upload, if any (S3 backends). */
  uploadId?: string;
  createdAt: number;
  updatedAt: number;
  /** Internal: bumped by every write; updates are conditional on it. */
  rev: number;
}

export const HANDLE_PREFIX = 'service://file/';

export const handleOf = (fileId: string): string => `${HANDLE_PREFIX}${fileId}`;

/**
 * File ids are UUIDs minted by the service; anything else in a path names no file. Checking the
 * shape first means no id can ever reach a filesystem path or an object key with `..` or `/`.
 */
const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isFileId(value: string): boolean {
  return FILE_ID.test(value);
}

/** The bare file id of a handle (`service://file/<id>`) or of a bare id. */
export function fileIdOf(handle: string): string {
  const id = handle.startsWith(HANDLE_PREFIX) ? handle.slice(HANDLE_PREFIX.length) : handle;
  if (!isFileId(id)) throw new ValidationError(`Not a file handle: '${handle.slice(0, 100)}'`);
  return id;
}

export const storageTypeOf = (backend: FileBackendType): string =>
  backend === 'service' ? 'SERVICE' : backend.toUpperCase().replace('-', '_');
