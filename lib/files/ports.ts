/**
 * The ports of file storage: the record store (memory and DynamoDB, one contract suite) and the
 * byte backends (the service's own directory, S3 and S3-compatible stores).
 */
import type { FileRecord } from './model.ts';

export interface FileStore {
  /** Stores a new record; a ConflictError when the id exists. */
  create(record: FileRecord): Promise<void>;
  get(fileId: string): Promise<FileRecord | undefined>;
  /**
   * Replaces the record if its stored `rev` equals `expectedRev` (the record passed carries the
   * next rev); else a VersionConflictError: another request changed it first.
   */
  update(record: FileRecord, expectedRev: number): Promise<void>;
}

export interface FileStores {
  files: FileStore;
}

/** An URL a client uses directly, with its expiry (epoch ms). */
export interface IssuedUrl {
  url: string;
  expiresAt: number;
}

/** What a backend knows of a stored object. */
export interface StoredObject {
  size: number;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

/** Where the request came from: content URLs of the service backend are built on it. */
export interface UrlContext {
  origin: string;
}

/**
 * Where the bytes live, by file id: ids are checked UUIDs (model.ts isFileId) minted by the
 * service, so a backend never sees a client's path. The owner is in the record, not the key.
 */
export interface FileBackend {
  readonly multipart: boolean;
  uploadUrl(record: FileRecord, at: UrlContext): Promise<IssuedUrl>;
  downloadUrl(record: FileRecord, at: UrlContext): Promise<IssuedUrl>;
  /** Size and hash of the stored bytes, undefined when nothing was uploaded. */
  inspect(fileId: string): Promise<StoredObject | undefined>;
  /** Multipart (backends with `multipart`): upload id. */
  initiateMultipart?(fileId: string, contentType: string): Promise<string>;
  partUrl?(fileId: string, uploadId: string, partNumber: number): Promise<IssuedUrl>;
  completeMultipart?(fileId: string, uploadId: string, partETags: readonly string[]): Promise<void>;
  abortMultipart?(fileId: string, uploadId: string): Promise<void>;
}
