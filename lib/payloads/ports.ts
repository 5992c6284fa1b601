/**
 * The payload store port: large workflow and task inputs and outputs kept outside the execution
 * records (docs/conductor-compat.md §2.5-2.6 `external...PayloadStoragePath`), one JSON document per
 * key. Adapters: memory, the local filesystem (the local server's persistent store) and S3 (AWS).
 * Keys are always ones this service issued (keys.ts), so no adapter ever sees a caller's path.
 */

export type PayloadOperation = 'READ' | 'WRITE';

/** A stored payload as a listing shows it: its key and when it was last written (epoch ms). */
export interface StoredPayload {
  key: string;
  writtenAt: number;
}

export interface PayloadStore {
  /** Stores (or replaces) one JSON document. */
  put(key: string, json: string): Promise<void>;
  /** The document, or undefined when nothing is stored under the key. */
  get(key: string): Promise<string | undefined>;
  /**
   * A URL a client reads (GET) or writes (PUT) the document at directly, valid for `expiresIn`
   * seconds. Adapters without one (memory, filesystem) leave it out: the local server serves
   * those keys itself (lib/workflows/routes/external-storage.ts).
   */
  presign?(key: string, operation: PayloadOperation, expiresIn: number): Promise<string>;
  /**
   * Every stored payload, with its last write time: what the payload sweep (sweep.ts) looks at.
   * Every adapter of the service has it; a store without it is never swept.
   */
  list?(): AsyncIterable<StoredPayload>;
  /**
   * Reclaims a payload the sweep found unreferenced, unless it was written again since
   * `writtenAt` (the time its listing showed): then it is left alone and the answer is false.
   * Memory and filesystem delete it at once, atomically with respect to this store's own writes;
   * S3 marks it for the bucket's lifecycle rule, which deletes it within a day or two, while a
   * write of the key meanwhile replaces the object and so drops the mark (s3.ts).
   */
  reclaim?(key: string, writtenAt: number): Promise<boolean>;
}
