/**
 * Retention of rows with a TTL over the DynamoDB adapters on dynalite, which never deletes expired
 * items: the `ttl` attribute DynamoDB would act on is checked on the stored items.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { runOnDynalite } from '../helpers/dynamo.ts';
import { retentionContract } from './retention.contract.ts';

runOnDynalite((name, factory) =>
  retentionContract(name, async () => {
    const fresh = await factory();
    return {
      ...fresh,
      async storedTtls(pkPart) {
        const ttls: number[] = [];
        for (const table of Object.values(fresh.tables)) {
          const { Items = [] } = await fresh.admin.send(new ScanCommand({ TableName: table }));
          for (const item of Items) {
            if (item.pk?.S?.includes(pkPart) && item.ttl?.N !== undefined) ttls.push(Number(item.ttl.N));
          }
        }
        return ttls;
      },
    };
  }),
);
