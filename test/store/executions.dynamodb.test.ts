/**
 * The execution store contract against the DynamoDB adapter, talking over HTTP to an in-process,
 * in-memory dynalite started for this file. Each test gets its own tables (unique prefix).
 */
import { afterAll, beforeAll } from 'vitest';
import { startTestDynamo, type TestDynamo } from '../helpers/dynamo.ts';
import { executionStoreContract } from './executions.contract.ts';

let dynamo: TestDynamo | undefined;

beforeAll(async () => {
  dynamo = await startTestDynamo();
});

afterAll(async () => {
  await dynamo?.close();
});

executionStoreContract('DynamoDB (dynalite)', async () => {
  if (!dynamo) throw new Error('dynalite did not start');
  return dynamo.freshStores();
});
