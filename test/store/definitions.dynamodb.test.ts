/**
 * The definition store contract against the DynamoDB adapter, talking over HTTP to an in-process,
 * in-memory dynalite started for this file. Each test gets its own tables (unique prefix).
 */
import { afterAll, beforeAll } from 'vitest';
import { startTestDynamo, type TestDynamo } from '../helpers/dynamo.ts';
import { definitionStoreContract } from './definitions.contract.ts';

let dynamo: TestDynamo | undefined;

beforeAll(async () => {
  dynamo = await startTestDynamo();
});

afterAll(async () => {
  await dynamo?.close();
});

definitionStoreContract('DynamoDB (dynalite)', async () => {
  if (!dynamo) throw new Error('dynalite did not start');
  return dynamo.freshStores();
});
