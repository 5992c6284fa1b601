/**
 * Embedded stores for tests: each on its own LevelDB directory under the system's temp dir,
 * removed by cleanup. `reopening` closes and opens the database again before every store call,
 * so a contract run that way proves every state it checks is read back from disk, as after a
 * restart, not from what the process still held.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceStores } from '../../lib/runtime/store-bundle.ts';
import { createEmbeddedStores, createMemoryStores } from '../../lib/runtime/stores.ts';
import { EmbeddedDb, type EmbeddedDbOptions } from '../../lib/store/embedded/database.ts';

export interface EmbeddedUnderTest {
  stores: ServiceStores;
  dir: string;
  cleanup(): Promise<void>;
}

export function embeddedDir(): string {
  return mkdtempSync(join(tmpdir(), 'embedded-store-'));
}

export async function freshEmbeddedStores(options: EmbeddedDbOptions = {}): Promise<EmbeddedUnderTest> {
  const dir = embeddedDir();
  const stores = createEmbeddedStores(await EmbeddedDb.open(dir, options));
  return {
    stores,
    dir,
    async cleanup() {
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stores that open the database afresh (reading everything back from disk) before every call. */
export async function reopeningEmbeddedStores(): Promise<EmbeddedUnderTest> {
  const dir = embeddedDir();
  let current = createEmbeddedStores(await EmbeddedDb.open(dir));
  const reopen = async () => {
    await current.close();
    current = createEmbeddedStores(await EmbeddedDb.open(dir));
    return current;
  };
  // One call at a time: concurrent calls would close the database under each other.
  let chain: Promise<unknown> = Promise.resolve();
  const serialized = <T>(call: () => Promise<T>): Promise<T> => {
    const result = chain.then(call, call);
    chain = result.catch(() => {});
    return result;
  };
  const stores = new Proxy({} as ServiceStores, {
    get(_target, name) {
      if (name === 'close') return () => current.close();
      return new Proxy(
        {},
        {
          get(_port, method) {
            return (...args: unknown[]) =>
              serialized(async () => {
                const port = (await reopen())[name as keyof ServiceStores] as unknown as Record<
                  PropertyKey,
                  (...a: unknown[]) => Promise<unknown>
                >;
                return (port[method] as (...a: unknown[]) => Promise<unknown>).apply(port, args);
              });
          },
        },
      );
    },
  });
  return {
    stores,
    dir,
    async cleanup() {
      await current.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A store a suite runs over: each drive opens its own stores and releases them after. */
export interface StoreBackend {
  name: string;
  open(): Promise<{ stores: ServiceStores; cleanup(): Promise<void> }>;
}

/** The memory store and the embedded store, for suites that run over both. */
export const STORE_BACKENDS: readonly StoreBackend[] = [
  { name: 'memory', open: async () => ({ stores: createMemoryStores(), cleanup: async () => {} }) },
  { name: 'embedded', open: () => freshEmbeddedStores() },
];
