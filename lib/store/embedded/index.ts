/**
 * The embedded store as the hosts use it: every capability's stores over one embedded database
 * (database.ts), each port call acknowledged only once what it wrote is on disk, and a failed
 * write answered 503 and followed by a reload of the memory tables from disk, so what the store
 * holds in memory never differs from what it would read back after a restart.
 */
import { TransientError } from '../../model/errors.ts';
import type { TableSource } from '../keyed.ts';
import type { EmbeddedDb } from './database.ts';
import { DurableTable } from './durable-table.ts';

/** What a capability's embedded stores are built over: durable tables, and the database itself. */
export interface EmbeddedSource extends TableSource {
  db: EmbeddedDb;
}

export function embeddedSource(db: EmbeddedDb): EmbeddedSource {
  return { db, table: <V>(name: string) => new DurableTable<V>(db, name) };
}

/**
 * Stores whose every method call resolves after its writes are durable. `build` makes the adapters
 * over the database's current contents; after a failed write it runs again on what the disk holds.
 */
export function acknowledgedWhenDurable<T extends object>(db: EmbeddedDb, build: () => T): T {
  const built = () => {
    const stores = build();
    db.releaseLoaded();
    return stores;
  };
  let current = built();
  let recovering: Promise<void> | undefined;
  const recover = () => {
    recovering ??= db
      .recover()
      .then(() => {
        current = built();
      })
      .finally(() => {
        recovering = undefined;
      });
    return recovering;
  };
  type Port = Record<PropertyKey, unknown>;
  const portOf = (name: PropertyKey): Port => (current as Record<PropertyKey, Port>)[name] as Port;
  /**
   * A port method that answers once its writes are durable; a relaxed one (RELAXED) answers at
   * once and has its writes logged soon. Made once per method.
   */
  const wrapped =
    (name: PropertyKey, method: PropertyKey, relaxed: boolean) =>
    async (...args: unknown[]): Promise<unknown> => {
      if (recovering) await recovering;
      if (db.failed) await recover();
      const generation = db.generation;
      const target = portOf(name);
      try {
        const result = await (target[method] as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (relaxed) {
          db.syncSoon();
          return result;
        }
        await db.sync();
        // The store was reloaded while this call ran: what it wrote before the failed write may
        // have been dropped with it, and what it read may be gone.
        if (db.generation !== generation) {
          throw new TransientError('The store was reloaded after a failed write; retry the request');
        }
        return result;
      } catch (error) {
        if (db.failed) void recover().catch(() => {});
        throw error;
      }
    };
  // Plain objects, one per port, with a wrapper for each of its methods: they behave as
  // the adapters do (a caller may replace a method, as the benchmarks do to observe calls).
  const stores: Record<PropertyKey, unknown> = {};
  for (const [name, value] of Object.entries(current)) {
    if (typeof value !== 'object' || value === null) {
      stores[name] = value;
      continue;
    }
    const port: Record<PropertyKey, unknown> = {};
    for (const method of methodsOf(value)) {
      port[method] = wrapped(name, method, RELAXED.has(`${name}.${method}`));
    }
    stores[name] = port;
  }
  return stores as T;
}

/**
 * Writes that may be lost with the last second before a crash, since nobody is told of them: a
 * worker's last poll time (`GET /api/tasks/queue/polldata`, and the domains a task may go to),
 * written by every poll, empty ones included. It is visible at once in this process; only its
 * durability waits, as Conductor's Postgres persistence buffers it (`pollDataFlushInterval`).
 * Each would otherwise cost a log append of its own.
 */
const RELAXED = new Set(['pollData.record']);

/** The names of an object's methods, its own and its prototypes', as the adapters' classes define them. */
function methodsOf(value: object): string[] {
  const names = new Set<string>();
  for (let at: object | null = value; at && at !== Object.prototype; at = Object.getPrototypeOf(at)) {
    for (const name of Object.getOwnPropertyNames(at)) {
      if (name !== 'constructor' && typeof (value as Record<string, unknown>)[name] === 'function')
        names.add(name);
    }
  }
  return [...names];
}
