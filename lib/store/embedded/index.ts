/**
 * The embedded store as the hosts use it: every capability's stores over one embedded database
 * (database.ts), each port call acknowledged only once what it wrote is on disk, and a failed
 * write answered 503 and followed by a reload of the memory tables from disk, so what the store
 * holds in memory never differs from what it would read back after a restart.
 */
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
  let current = build();
  let recovering: Promise<void> | undefined;
  const recover = () => {
    recovering ??= db
      .recover()
      .then(() => {
        current = build();
      })
      .finally(() => {
        recovering = undefined;
      });
    return recovering;
  };
  type Port = Record<PropertyKey, unknown>;
  const portOf = (name: PropertyKey): Port => (current as Record<PropertyKey, Port>)[name] as Port;
  /** A method of a port that answers once its writes are durable (made once per method). */
  const durableMethod =
    (name: PropertyKey, method: PropertyKey) =>
    async (...args: unknown[]): Promise<unknown> => {
      if (recovering) await recovering;
      if (db.failed) await recover();
      const target = portOf(name);
      try {
        const result = await (target[method] as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await db.sync();
        return result;
      } catch (error) {
        if (db.failed) void recover().catch(() => {});
        throw error;
      }
    };
  const ports = new Map<PropertyKey, object>();
  const portProxy = (name: PropertyKey): object => {
    const methods = new Map<PropertyKey, (...args: unknown[]) => Promise<unknown>>();
    return new Proxy(
      {},
      {
        get(_target, method) {
          const member = portOf(name)?.[method];
          if (typeof member !== 'function') return member;
          let wrapped = methods.get(method);
          if (!wrapped) {
            wrapped = durableMethod(name, method);
            methods.set(method, wrapped);
          }
          return wrapped;
        },
      },
    );
  };
  return new Proxy(current, {
    get(_target, name) {
      const value = (current as Record<PropertyKey, unknown>)[name];
      if (typeof value !== 'object' || value === null) return value;
      let port = ports.get(name);
      if (!port) {
        port = portProxy(name);
        ports.set(name, port);
      }
      return port;
    },
  });
}
