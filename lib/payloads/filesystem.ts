/**
 * Payload store on the local filesystem, under the local server's data directory (beside its
 * embedded DynamoDB), so payloads survive restarts like the records that point at them. A write
 * goes to a temporary file renamed into place: a reader never sees half a document, and a crash
 * leaves either the old document or the new one.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isPayloadKey } from './keys.ts';
import type { PayloadStore } from './ports.ts';

export class FilesystemPayloadStore implements PayloadStore {
  constructor(private readonly directory: string) {}

  async put(key: string, json: string): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(dirname(file), { recursive: true });
    const temporary = `${file}.${randomUUID()}.tmp`;
    await writeFile(temporary, json, 'utf8');
    await rename(temporary, file);
  }

  async get(key: string): Promise<string | undefined> {
    try {
      return await readFile(this.fileOf(key), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Keys are checked again here: a path that reached this far unchecked is a bug, not a file. */
  private fileOf(key: string): string {
    if (!isPayloadKey(key)) throw new Error(`Not a payload key: ${key}`);
    return join(this.directory, key);
  }
}
