/**
 * A dynamic fork of 1,000 INLINE branches over the DynamoDB stores (dynalite): the branches leave
 * the run record with the JOIN that gathered them, the FORK marker's input and the JOIN's output go
 * to the payload store, so every item stays within DynamoDB's 400 KB and the run completes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshStores, startTestDynamo, type TestDynamo } from '../../helpers/dynamo.ts';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { ref } from '../../helpers/fixtures.ts';

describe('FORK_JOIN_DYNAMIC on DynamoDB', () => {
  let dynamo: TestDynamo;
  let fresh: FreshStores;
  let h: EngineHarness;
  beforeAll(async () => {
    dynamo = await startTestDynamo();
    fresh = await dynamo.freshStores();
    h = await engineHarness({ stores: fresh.stores });
  });
  afterAll(async () => {
    await h.close();
    await fresh.cleanup();
    await dynamo.close();
  });

  it('forks 1,000 INLINE branches and joins them', async () => {
    await h.register({
      name: 'dyn_thousand_dynamo',
      tasks: [
        {
          name: 'fan',
          taskReferenceName: 'fan',
          type: 'FORK_JOIN_DYNAMIC',
          inputParameters: {
            forkTaskType: 'INLINE',
            forkTaskName: 'sq',
            forkTaskInputs: ref('workflow.input.items'),
          },
        },
        { name: 'gather', taskReferenceName: 'gather', type: 'JOIN' },
      ],
      outputParameters: { joined: ref('gather.output') },
    });
    const items = Array.from({ length: 1000 }, (_, n) => ({
      n,
      evaluatorType: 'value-param',
      expression: 'n',
    }));
    const id = await h.start('dyn_thousand_dynamo', { items });
    const run = await h.run(id);
    expect(run.reasonForIncompletion).toBeUndefined();
    expect(run.status).toBe('COMPLETED');
    expect(Object.keys(run.output.joined as object)).toHaveLength(1000);
  }, 120_000);
});
