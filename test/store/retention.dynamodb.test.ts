/**
 * Retention of rows with a TTL over the DynamoDB adapters on dynalite, which never deletes expired
 * items: the `ttl` attribute DynamoDB would act on is checked on the stored items.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { startTestDynamo, type TestDynamo } from '../helpers/dynamo.ts';
import { retentionContract } from './retention.contract.ts';

let dynamo: TestDynamo | undefined;
beforeAll(async () => {
  dynamo = await startTestDynamo();
});
afterAll(async () => {
  await dynamo?.close();
});

retentionContract('DynamoDB (dynalite)', async () => {
  if (!dynamo) throw new Error('dynalite did not start');
  const { admin } = dynamo;
  const fresh = await dynamo.freshStores();
  return {
    ...fresh,
    async storedTtls(pkPart) {
      const ttls: number[] = [];
      for (const table of Object.values(fresh.tables)) {
        const { Items = [] } = await admin.send(new ScanCommand({ TableName: table }));
        for (const item of Items) {
          if (item.pk?.S?.includes(pkPart) && item.ttl?.N !== undefined) ttls.push(Number(item.ttl.N));
        }
      }
      return ttls;
    },
  };
});
