/**
 * An in-process dynalite server (DynamoDB on LevelDB): the local server's default store (on disk)
 * and the DynamoDB contract suite's backend (in memory). Listens on loopback only.
 */
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';

export interface EmbeddedDynamo {
  endpoint: string;
  client(): DynamoDBClient;
  close(): Promise<void>;
}

/** Starts dynalite; `path` keeps data on disk, none keeps it in memory. */
export async function startEmbeddedDynamo(options: { path?: string } = {}): Promise<EmbeddedDynamo> {
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
