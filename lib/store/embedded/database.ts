/**
 * The embedded store's engine: one LevelDB directory (classic-level, prebuilt binaries in the npm
 * package), owned by this process (LevelDB's LOCK file), read and written in process with no
 * client, protocol or emulator between the adapters and the disk.
 *
 * Writes are group-committed: an adapter records puts and deletes synchronously (they are visible
 * to every later read at once, through the overlay of writes not yet on disk), and `sync()`
 * resolves when everything recorded before it is in LevelDB's log. The store bundle awaits it
 * after every port call (index.ts), so nothing is acknowledged before it is written; writes
 * recorded while a batch is being written go out together in the next one, in order.
 *
 * A LevelDB write returns once its log record is handed to the operating system, so it survives a
 * crash (kill -9) of this process; `sync` (service.local.fsync) also waits for fsync, which
 * survives a crash of the machine, at the cost of one disk flush per batch.
 *
 * Two kinds of keys: tables kept whole in memory (`m/<table>/<key>`, loaded at open: definitions,
 * queues, run headers...) and keys read on demand (`x/...`: run records, task rows, logs), so
 * memory is bounded by the small tables, not by the number of runs.
 */
import { ClassicLevel } from 'classic-level';
import { TransientError } from '../../model/errors.ts';

/** The on-disk store is open in another process (or in this one). */
export class StoreLockedError extends Error {}

/** The on-disk store cannot be read: damaged, or not a store. */
export class StoreDamagedError extends Error {}

type Write = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

interface Waiter {
  upTo: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The leveldb handle the database writes through: classic-level itself, or a test's faulty wrapper. */
export type LevelHandle = Pick<
  ClassicLevel<string, string>,
  'batch' | 'getSync' | 'iterator' | 'close' | 'open' | 'status'
>;

export interface EmbeddedDbOptions {
  /** Wait for fsync on every batch (survives a machine crash, not only a process crash). */
  fsync?: boolean;
  /** Wraps the handle (fault-injection tests). */
  wrap?: (level: LevelHandle) => LevelHandle;
}

const MEMORY_PREFIX = 'm/';
/** The first key after every `m/...` key ('0' follows '/'). */
const MEMORY_END = 'm0';

export class EmbeddedDb {
  /** Recorded, not yet written: newest value by key (undefined: deleted). */
  private readonly overlay = new Map<string, { value: string | undefined; at: number }>();
  private pending: Write[] = [];
  private recorded = 0;
  private durable = 0;
  private writing = false;
  private waiters: Waiter[] = [];
  private failure: Error | undefined;
  /** Incremented by every recover(): writers of an earlier generation are refused (stale memory). */
  private generationCount = 0;
  /** Tables kept in memory, as loaded at open (and again after a failed write). */
  private loaded = new Map<string, Map<string, string>>();

  private constructor(
    private readonly level: LevelHandle,
    private readonly options: EmbeddedDbOptions,
  ) {}

  static async open(path: string, options: EmbeddedDbOptions = {}): Promise<EmbeddedDb> {
    const raw = new ClassicLevel<string, string>(path, { valueEncoding: 'utf8' });
    try {
      await raw.open();
    } catch (error) {
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
      if (cause?.code === 'LEVEL_LOCKED') throw new StoreLockedError(`The store at ${path} is locked`);
      throw new StoreDamagedError(
        `The store at ${path} cannot be opened (${String(cause?.message ?? (error as Error).message)})`,
      );
    }
    const db = new EmbeddedDb(options.wrap ? options.wrap(raw) : raw, options);
    await db.load();
    return db;
  }

  /** Every table kept in memory, read from disk (at open, and after a failed write). */
  private async load(): Promise<void> {
    const tables = new Map<string, Map<string, string>>();
    for await (const [key, value] of this.entries(MEMORY_PREFIX, MEMORY_END)) {
      const slash = key.indexOf('/', MEMORY_PREFIX.length);
      const table = key.slice(MEMORY_PREFIX.length, slash);
      let rows = tables.get(table);
      if (!rows) {
        rows = new Map();
        tables.set(table, rows);
      }
      rows.set(key.slice(slash + 1), value);
    }
    this.loaded = tables;
  }

  /** The stored rows of a table kept in memory (key -> JSON), as last loaded. */
  rowsOf(table: string): ReadonlyMap<string, string> {
    return this.loaded.get(table) ?? new Map();
  }

  /** The key of a row of a table kept in memory. */
  static memoryKey(table: string, key: string): string {
    return `${MEMORY_PREFIX}${table}/${key}`;
  }

  get(key: string): string | undefined {
    const recorded = this.overlay.get(key);
    if (recorded) return recorded.value;
    return this.level.getSync(key);
  }

  /** The current generation: what a writer holds, to be refused once its memory is stale. */
  get generation(): number {
    return this.generationCount;
  }

  put(key: string, value: string, generation = this.generationCount): void {
    this.record({ type: 'put', key, value }, generation);
  }

  del(key: string, generation = this.generationCount): void {
    this.record({ type: 'del', key }, generation);
  }

  private record(write: Write, generation: number): void {
    if (this.failure) throw unavailable(this.failure);
    if (generation !== this.generationCount) {
      throw new TransientError('The store was reloaded after a failed write; retry the request');
    }
    this.recorded++;
    this.pending.push(write);
    this.overlay.set(write.key, { value: write.type === 'put' ? write.value : undefined, at: this.recorded });
  }

  /** Resolves when every write recorded so far is on disk; rejects (503) when one failed. */
  sync(): Promise<void> {
    if (this.failure) return Promise.reject(unavailable(this.failure));
    if (this.durable >= this.recorded) return Promise.resolve();
    const upTo = this.recorded;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ upTo, resolve, reject }));
    if (!this.writing) void this.writeLoop();
    return done;
  }

  private async writeLoop(): Promise<void> {
    this.writing = true;
    try {
      while (this.pending.length > 0 && !this.failure) {
        const batch = this.pending;
        this.pending = [];
        const upTo = this.durable + batch.length;
        try {
          await this.level.batch(batch, { sync: this.options.fsync === true });
        } catch (error) {
          this.fail(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        this.durable = upTo;
        // A key written again since stays in the overlay with its newer value.
        for (const write of batch) {
          const recorded = this.overlay.get(write.key);
          if (recorded && recorded.at <= upTo) this.overlay.delete(write.key);
        }
        const ready = this.waiters.filter((w) => w.upTo <= upTo);
        this.waiters = this.waiters.filter((w) => w.upTo > upTo);
        for (const waiter of ready) waiter.resolve();
      }
    } finally {
      this.writing = false;
    }
  }

  /**
   * A write failed (a full disk, an I/O error): what it held, and everything recorded after it, is
   * dropped and every waiter answered 503. Until `recover()` the store refuses writes, since the
   * tables kept in memory may hold what never reached the disk.
   */
  private fail(error: Error): void {
    this.failure = error;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(unavailable(error));
  }

  /** Whether a write failed and the memory tables must be read again (recover). */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Forgets what did not reach the disk and reads the memory tables again from it. */
  async recover(): Promise<void> {
    this.pending = [];
    this.overlay.clear();
    this.durable = this.recorded;
    await this.load();
    this.generationCount++;
    this.failure = undefined;
  }

  /**
   * Every row under `prefix` (up to `end`, exclusive; default: the prefix's range), as stored now,
   * including writes recorded but not yet on disk: the iterator's snapshot and the overlay are
   * both taken before the first await, so they describe one moment.
   */
  async *entries(prefix: string, end = `${prefix}\uffff`): AsyncGenerator<[string, string]> {
    const pending = new Map<string, string | undefined>();
    for (const [key, { value }] of this.overlay) if (key >= prefix && key < end) pending.set(key, value);
    const iterator = this.level.iterator({ gte: prefix, lt: end });
    try {
      const sorted = [...pending.keys()].sort();
      let next = 0;
      for (;;) {
        const chunk = await iterator.nextv(1000);
        for (const [key, value] of chunk) {
          // Overlay keys before this one that the disk does not hold yet.
          while (next < sorted.length && (sorted[next] as string) < key) {
            const k = sorted[next++] as string;
            const v = pending.get(k);
            if (v !== undefined) yield [k, v];
          }
          if (pending.has(key)) {
            if ((sorted[next] as string) === key) next++;
            const v = pending.get(key);
            if (v !== undefined) yield [key, v];
          } else yield [key, value];
        }
        if (chunk.length === 0) break;
      }
      while (next < sorted.length) {
        const k = sorted[next++] as string;
        const v = pending.get(k);
        if (v !== undefined) yield [k, v];
      }
    } finally {
      await iterator.close();
    }
  }

  async close(): Promise<void> {
    if (!this.failure) await this.sync().catch(() => {});
    if (this.level.status === 'open') await this.level.close();
  }
}

function unavailable(cause: Error): TransientError {
  return new TransientError(`The store could not write to disk: ${cause.message}`);
}
