/**
 * The payload store port: large workflow and task inputs and outputs kept outside the execution
 * records (docs/conductor-compat.md §2.5-2.6 `external...PayloadStoragePath`), one JSON document per
 * key. Adapters: memory, the local filesystem (the local server's persistent store) and S3 (AWS).
 * Keys are always ones this service issued (keys.ts), so no adapter ever sees a caller's path.
 */

export type PayloadOperation = 'READ' | 'WRITE';

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
}
