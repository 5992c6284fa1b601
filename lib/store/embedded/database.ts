/**
 * The embedded store's engine: one LevelDB database (classic-level, prebuilt binaries in the npm
 * package) and a write-ahead log in front of it (wal.ts), in one directory owned by this process
 * (LevelDB's LOCK file), read and written in process with no client, protocol or emulator between
 * the adapters and the disk.
 *
 * Adapters record puts and deletes synchronously; they are visible to every later read at once,
 * through the overlay of writes not yet in LevelDB. `sync()` makes everything recorded so far
 * durable with one append to the log (write(2), so it survives kill -9 of this process; with
 * service.local.fsync also fdatasync, which survives a crash of the machine), and the store bundle
 * calls it after every port call (index.ts; a worker's last poll time excepted, logged within a
 * second: syncSoon), so nothing is acknowledged before it is written. LevelDB receives the logged
 * writes in one batch a second later, in the background; at open, what the log holds beyond
 * LevelDB is written into it first.
 *
 * Two kinds of keys: tables kept whole in memory (`m/<table>/<key>`, loaded at open: definitions,
 * queues, run headers...) and keys read on demand (`x/...`: run records, task rows, logs), so
 * memory is bounded by the small tables, not by the number of runs.
 */
import { join } from 'node:path';
import type { ClassicLevel } from 'classic-level';
import { TransientError } from '../../model/errors.ts';
import { type Write, WriteAheadLog } from './wal.ts';

/** The on-disk store is open in another process (or in this one). */
export class StoreLockedError extends Error {}

/** The on-disk store cannot be read: damaged, or not a store. */
export class StoreDamagedError extends Error {}

/** The leveldb handle the database writes through: classic-level itself, or a test's faulty wrapper. */
export type LevelHandle = Pick<
  ClassicLevel<string, string>,
  'batch' | 'getSync' | 'iterator' | 'close' | 'open' | 'status'
>;

export interface EmbeddedDbOptions {
  /** Wait for fdatasync on every append (survives a machine crash, not only a process crash). */
  fsync?: boolean;
  /** Wraps the handle (fault-injection tests). */
  wrap?: (level: LevelHandle) => LevelHandle;
  /** Called before every log append; throwing stands for a failed write (fault-injection tests). */
  beforeAppend?: () => void;
}

/**
 * How long logged writes wait to join a larger LevelDB batch. A run's record and its task rows
 * are rewritten several times a second under load; a batch keeps only each key's last write, so a
 * longer wait writes less: measured with bench:stores, 25 ms -> 1 s took the embedded store from
 * 1.45 to about 1.2 ms of server CPU per task. The writes wait in memory (the overlay, a second's
 * worth: some 10 MB at 1,000 tasks/s) and in the log, which a restart replays.
 */
const APPLY_DELAY_MS = 1000;
/** Logged writes that start a LevelDB batch at once, whatever the wait (bounds the overlay). */
const APPLY_AT_WRITES = 50_000;

const MEMORY_PREFIX = 'm/';
/** The first key after every `m/...` key ('0' follows '/'). */
const MEMORY_END = 'm0';

export class EmbeddedDb {
  /** Recorded, not yet in LevelDB: newest value by key (undefined: deleted) and its record number. */
  private readonly overlay = new Map<string, { value: string | undefined; at: number }>();
  /**
   * The overlay's keys by scope (scopeOf: one run's task rows, one task's log lines), so a scan of
   * one run's rows looks at that run's pending writes, not at a second's worth of everyone's.
   */
  private readonly overlayScopes = new Map<string, Set<string>>();
  /** Recorded, not yet logged. */
  private pending: Write[] = [];
  /** Logged, not yet in LevelDB. */
  private unapplied: Write[] = [];
  private recorded = 0;
  private applied = 0;
  private applyTimer: NodeJS.Timeout | undefined;
  private lazySync: NodeJS.Timeout | undefined;
  private applying: Promise<void> | undefined;
  private failure: Error | undefined;
  /** Incremented by every recover(): writers of an earlier generation are refused (stale memory). */
  private generationCount = 0;
  /** Tables kept in memory, as loaded at open (and again after a failed write). */
  private loaded = new Map<string, Map<string, string>>();

  private constructor(
    private readonly level: LevelHandle,
    private readonly wal: WriteAheadLog,
    private readonly options: EmbeddedDbOptions,
  ) {}

  /** Opens (or creates) the store in `path`: LevelDB in level/, the write-ahead log in wal/. */
  static async open(path: string, options: EmbeddedDbOptions = {}): Promise<EmbeddedDb> {
    // Loaded here, not at import: the Lambda functions bundle this module (the capabilities name
    // every store) but never open it, and their package carries no native LevelDB build.
    const { ClassicLevel } = await import('classic-level');
    const raw = new ClassicLevel<string, string>(join(path, 'level'), { valueEncoding: 'utf8' });
    try {
      await raw.open();
    } catch (error) {
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
      if (cause?.code === 'LEVEL_LOCKED') throw new StoreLockedError(`The store at ${path} is locked`);
      throw new StoreDamagedError(
        `The store at ${path} cannot be opened (${String(cause?.message ?? (error as Error).message)})`,
      );
    }
    const level = options.wrap ? options.wrap(raw) : raw;
    const db = new EmbeddedDb(level, new WriteAheadLog(join(path, 'wal'), options.fsync === true), options);
    await db.replayLog();
    await db.load();
    return db;
  }

  /** Writes what the log holds into LevelDB (what a crash left there), then deletes its segments. */
  private async replayLog(): Promise<void> {
    this.wal.close();
    const segments = this.wal.segments();
    const writes = this.wal.replay();
    if (writes.length > 0) await this.level.batch(writes, { sync: true });
    this.wal.drop(segments);
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

  /** Drops the loaded rows once the tables are built from them (they would double their memory). */
  releaseLoaded(): void {
    this.loaded = new Map();
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
    if (!this.overlay.has(write.key)) {
      const scope = scopeOf(write.key);
      if (scope !== undefined) {
        let keys = this.overlayScopes.get(scope);
        if (!keys) {
          keys = new Set();
          this.overlayScopes.set(scope, keys);
        }
        keys.add(write.key);
      }
    }
    this.overlay.set(write.key, { value: write.type === 'put' ? write.value : undefined, at: this.recorded });
  }

  /**
   * Makes every write recorded so far durable with one append to the log, at once; rejects (503)
   * when that fails. At once rather than at the end of the event loop's turn (which would let the
   * calls of a turn share one append, about 15 µs each here): a store call then completes within
   * the turn, as the memory store's do, so a request's own work (a start's first decide) is not
   * spread over turns that other requests interleave with.
   */
  sync(): Promise<void> {
    if (this.failure) return Promise.reject(unavailable(this.failure));
    if (this.pending.length === 0) return Promise.resolve();
    const group = this.pending;
    this.pending = [];
    try {
      this.options.beforeAppend?.();
      this.wal.append(group, this.recorded);
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
      return Promise.reject(unavailable(this.failure as unknown as Error));
    }
    for (const write of group) this.unapplied.push(write);
    if (this.unapplied.length >= APPLY_AT_WRITES) this.startApply();
    else this.applyTimer ??= setTimeout(() => this.startApply(), APPLY_DELAY_MS);
    return Promise.resolve();
  }

  /**
   * Makes the writes recorded so far durable within a second, without waiting: for writes nobody
   * is told of (a worker's last poll time), which then ride along with the next call's append.
   */
  syncSoon(): void {
    if (this.pending.length === 0 || this.lazySync !== undefined) return;
    this.lazySync = setTimeout(() => {
      this.lazySync = undefined;
      this.sync().catch(() => {});
    }, APPLY_DELAY_MS);
  }

  private startApply(): void {
    clearTimeout(this.applyTimer);
    this.applyTimer = undefined;
    this.applying ??= this.applyLogged().finally(() => {
      this.applying = undefined;
      // Writes logged meanwhile wait for their own batch, so each batch keeps its wait.
      if (this.unapplied.length > 0 && !this.failure) {
        this.applyTimer ??= setTimeout(() => this.startApply(), APPLY_DELAY_MS);
      }
    });
  }

  /**
   * Moves the logged writes into LevelDB in one batch: the last write of each key only (the batch
   * is atomic, so the end state is the same), then deletes the log segments it covered.
   */
  private async applyLogged(): Promise<void> {
    if (this.unapplied.length === 0 || this.failure) return;
    const logged = this.unapplied;
    this.unapplied = [];
    const upTo = this.applied + logged.length;
    const last = new Map<string, Write>();
    for (const write of logged) {
      last.delete(write.key);
      last.set(write.key, write);
    }
    try {
      await this.level.batch([...last.values()], { sync: this.options.fsync === true });
      this.wal.applied(upTo);
    } catch (error) {
      // The writes stay in the log (durable, acknowledged); recover() writes them in again.
      this.fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.applied = upTo;
    // A key written again since stays in the overlay with its newer value.
    for (const key of last.keys()) {
      const recorded = this.overlay.get(key);
      if (recorded && recorded.at <= upTo) this.forgetWritten(key);
    }
  }

  /**
   * A write failed (a full disk, an I/O error). Until `recover()` the store refuses writes, since
   * the tables kept in memory may hold what never reached the disk.
   */
  private fail(error: Error): void {
    this.failure ??= error;
  }

  /** Drops a key from the overlay once LevelDB holds its last write. */
  private forgetWritten(key: string): void {
    this.overlay.delete(key);
    const scope = scopeOf(key);
    if (scope === undefined) return;
    const keys = this.overlayScopes.get(scope);
    keys?.delete(key);
    if (keys?.size === 0) this.overlayScopes.delete(scope);
  }

  /** Whether a write failed and the memory tables must be read again (recover). */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /**
   * Forgets what was not logged, writes what the log holds into LevelDB, and reads the memory
   * tables again from it. Fails (and may be tried again) while the disk still refuses writes.
   */
  async recover(): Promise<void> {
    clearTimeout(this.applyTimer);
    this.applyTimer = undefined;
    await this.applying;
    this.pending = [];
    this.unapplied = [];
    this.applied = this.recorded;
    try {
      await this.replayLog();
      // Only now, with the log in LevelDB: until here a read still found the logged writes (a
      // call that read the dropped ones meanwhile is answered 503: index.ts, its generation
      // changed), and the tables are read from the disk alone.
      this.overlay.clear();
      this.overlayScopes.clear();
      await this.load();
    } catch (error) {
      // Still failing (the disk is still full): answered 503, and tried again by the next call.
      throw unavailable(error instanceof Error ? error : new Error(String(error)));
    }
    this.generationCount++;
    this.failure = undefined;
  }

  /**
   * Every row under `prefix` (up to `end`, exclusive; default: the prefix's range), as stored now,
   * including writes recorded but not yet on disk: the iterator's snapshot and the overlay are
   * both taken before the first await, so they describe one moment.
   */
  async *entries(prefix: string, end = `${prefix}\u{10ffff}`): AsyncGenerator<[string, string]> {
    const pending = new Map<string, string | undefined>();
    const scope = scopeOf(prefix);
    const candidates = scope === prefix ? (this.overlayScopes.get(scope) ?? []) : this.overlay.keys();
    for (const key of candidates) {
      if (compareKeys(key, prefix) >= 0 && compareKeys(key, end) < 0)
        pending.set(key, this.overlay.get(key)?.value);
    }
    const iterator = this.level.iterator({ gte: prefix, lt: end });
    try {
      const sorted = [...pending.keys()].sort(compareKeys);
      let next = 0;
      for (;;) {
        const chunk = await iterator.nextv(1000);
        for (const [key, value] of chunk) {
          // Overlay keys before this one that the disk does not hold yet.
          while (next < sorted.length && compareKeys(sorted[next] as string, key) < 0) {
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

  /** Makes everything durable and moves it into LevelDB, then closes both. */
  async close(): Promise<void> {
    clearTimeout(this.lazySync);
    this.lazySync = undefined;
    if (!this.failure) {
      await this.sync().catch(() => {});
      await this.applying;
      while (this.unapplied.length > 0 && !this.failure) {
        this.startApply();
        await this.applying;
      }
      clearTimeout(this.applyTimer);
    }
    this.wal.close();
    if (!this.failure && this.unapplied.length === 0) this.wal.drop(this.wal.segments());
    if (this.level.status === 'open') await this.level.close();
  }
}

/**
 * The scope of a key written as `x/<kind>/<JSON string>...` (executions.ts: a run's task rows, a
 * task's log lines, a type's index entries): the key up to the end of that string; other keys have
 * none. A scan whose prefix is exactly a scope reads only that scope's pending writes.
 */
export function scopeOf(key: string): string | undefined {
  if (key.length < 6 || key[0] !== 'x' || key[1] !== '/' || key[3] !== '/' || key[4] !== '"')
    return undefined;
  for (let i = 5; i < key.length; i++) {
    if (key[i] === '\\') i++;
    else if (key[i] === '"') return key.slice(0, i + 1);
  }
  return undefined;
}

/**
 * Keys in LevelDB's order: by their UTF-8 bytes, which is code point order. JavaScript's `<` compares
 * UTF-16 units instead, which puts a character above U+FFFF (a surrogate pair) before U+E000-U+FFFF.
 */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xPair = x >= 0xd800 && x <= 0xdfff;
    const yPair = y >= 0xd800 && y <= 0xdfff;
    if (xPair !== yPair) return xPair ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

function unavailable(cause: Error): TransientError {
  return new TransientError(`The store could not write to disk: ${cause.message}`);
}
