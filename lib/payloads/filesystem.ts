/**
 * Payload store on the local filesystem, under the local server's data directory (beside its
 * embedded DynamoDB), so payloads survive restarts like the records that point at them. A write
 * goes to a temporary file renamed into place: a reader never sees half a document, and a crash
 * leaves either the old document or the new one. A file's modification time is its write time
 * (the payload sweep's `writtenAt`). Writes and reclaims of one key take turns (one process owns
 * a data directory), so a reclaim never deletes a document written after the listing it acts on.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isPayloadKey } from './keys.ts';
import type { PayloadStore, StoredPayload } from './ports.ts';

export class FilesystemPayloadStore implements PayloadStore {
  /** The write or reclaim of each key in progress: the next one waits for it. */
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(private readonly directory: string) {}

  async put(key: string, json: string): Promise<void> {
    const file = this.fileOf(key);
    return this.inTurn(key, async () => {
      await mkdir(dirname(file), { recursive: true });
      const temporary = `${file}.${randomUUID()}.tmp`;
      await writeFile(temporary, json, 'utf8');
      await rename(temporary, file);
    });
  }

  async get(key: string): Promise<string | undefined> {
    try {
      return await readFile(this.fileOf(key), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Every document (`<namespace>/<file>`), with its modification time; temporary files left out. */
  async *list(): AsyncIterable<StoredPayload> {
    for (const namespace of await entriesOf(this.directory)) {
      for (const name of await entriesOf(join(this.directory, namespace))) {
        const key = `${namespace}/${name}`;
        if (!isPayloadKey(key)) continue;
        const writtenAt = await modifiedAt(this.fileOf(key));
        if (writtenAt !== undefined) yield { key, writtenAt };
      }
    }
  }

  async reclaim(key: string, writtenAt: number): Promise<boolean> {
    const file = this.fileOf(key);
    return this.inTurn(key, async () => {
      if ((await modifiedAt(file)) !== writtenAt) return false;
      await unlink(file);
      return true;
    });
  }

  /** Runs `work` once the key's previous write or reclaim has ended. */
  private inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.turns.get(key) ?? Promise.resolve();
    const turn = previous.then(work, work);
    const settled = turn.catch(() => undefined);
    this.turns.set(key, settled);
    void settled.then(() => {
      if (this.turns.get(key) === settled) this.turns.delete(key);
    });
    return turn;
  }

  /** Keys are checked again here: a path that reached this far unchecked is a bug, not a file. */
  private fileOf(key: string): string {
    if (!isPayloadKey(key)) throw new Error(`Not a payload key: ${key}`);
    return join(this.directory, key);
  }
}

async function entriesOf(directory: string): Promise<string[]> {
  try {
    return (await readdir(directory)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function modifiedAt(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
