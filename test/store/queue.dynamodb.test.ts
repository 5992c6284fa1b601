/**
 * The task queue and poll data contract against the DynamoDB adapters, talking over HTTP to an
 * in-process, in-memory dynalite started for this file. Each test gets its own tables (unique prefix).
 */
import { afterAll, beforeAll } from 'vitest';
import { startTestDynamo, type TestDynamo } from '../helpers/dynamo.ts';
import { queueStoreContract } from './queue.contract.ts';

let dynamo: TestDynamo | undefined;

beforeAll(async () => {
  dynamo = await startTestDynamo();
});

afterAll(async () => {
  await dynamo?.close();
});

queueStoreContract('DynamoDB (dynalite)', async () => {
  if (!dynamo) throw new Error('dynalite did not start');
  return dynamo.freshStores();
});
