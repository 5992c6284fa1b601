/**
 * An in-process dynalite server (DynamoDB on LevelDB): the local server's default store (on disk)
 * and the DynamoDB contract suite's backend (in memory). Listens on loopback only.
 */
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ClassicLevel } from 'classic-level';
import dynalite from 'dynalite';
import { StoreLockedError } from '../embedded/database.ts';

export interface EmbeddedDynamo {
  endpoint: string;
  client(): DynamoDBClient;
  close(): Promise<void>;
}

/** Starts dynalite; `path` keeps data on disk, none keeps it in memory. */
export async function startEmbeddedDynamo(options: { path?: string } = {}): Promise<EmbeddedDynamo> {
  if (options.path !== undefined) await assertUnlocked(options.path);
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, path: options.path });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    client: () => dynamoClient(endpoint),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error?: Error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A client for a local or custom endpoint; dummy credentials, since such endpoints do not check them. */
export function dynamoClient(endpoint: string, region = 'us-east-1'): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
  });
}

/**
 * LevelDB allows one process per directory (its LOCK file). dynalite opens the store in the
 * background and answers every request with "Database is closed" when that fails; opening it here
 * first (then closing it) turns a store held by another server into one clear error.
 */
async function assertUnlocked(path: string): Promise<void> {
  const probe = new ClassicLevel(path);
  try {
    await probe.open();
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    if (cause?.code === 'LEVEL_LOCKED') throw new StoreLockedError(`The store at ${path} is locked`);
    throw error;
  }
  await probe.close();
}
