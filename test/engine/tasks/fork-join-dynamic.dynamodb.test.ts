/**
 * Dynamic forks of 1,000 branches over the DynamoDB stores (dynalite). INLINE branches leave the
 * run record with the JOIN that gathered them; the FORK marker's input and the JOIN's output go to
 * the payload store. Worker (SIMPLE) branches are all open at once, so the run record holds them
 * all while workers poll and complete them: it must stay within DynamoDB's 400 KB item limit
 * (lib/store/run-codec.ts keeps it compact, execution-items.ts deflates it), so every decide
 * commits and the run completes with every branch's output joined.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../lib/model/execution.ts';
import { type FreshStores, startTestDynamo, type TestDynamo } from '../../helpers/dynamo.ts';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { dynamicForkFlow, inlineForkInputs, ref } from '../../helpers/fixtures.ts';

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
    await h.register(dynamicForkFlow('dyn_thousand_dynamo', { inputParameters: inlineForkInputs('sq') }));
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

  it('runs 1,000 SIMPLE branches open at once to completion', async () => {
    await h.register(
      dynamicForkFlow('dyn_thousand_workers', {
        inputParameters: { forkTaskName: 'crunch', forkTaskInputs: ref('workflow.input.items') },
      }),
    );
    const items = Array.from({ length: 1000 }, (_, n) => ({ n, label: `item-${n}` }));
    const id = await h.start('dyn_thousand_workers', { items });

    // Every branch is scheduled and open before any worker answers.
    const polled: TaskRecord[] = [];
    for (;;) {
      const batch = await h.services.engine.tasks.poll('crunch', { workerId: 'w', count: 100, timeoutMs: 0 });
      if (batch.length === 0) break;
      polled.push(...batch);
    }
    expect(polled).toHaveLength(1000);
    expect((await h.run(id)).tasks.filter((t) => t.taskType === 'crunch')).toHaveLength(1000);

    // Workers answer in waves of 100; the decides in between commit a record holding the rest.
    for (let i = 0; i < polled.length; i += 100) {
      await Promise.all(
        polled.slice(i, i + 100).map((task) =>
          h.services.engine.tasks.update({
            workflowInstanceId: id,
            taskId: task.taskId,
            status: 'COMPLETED',
            outputData: { doubled: (task.inputData.n as number) * 2 },
          }),
        ),
      );
      await h.settle();
      const run = await h.run(id);
      if (i + 100 < polled.length) expect(run.status).toBe('RUNNING');
    }

    const run = await h.run(id);
    expect(run.reasonForIncompletion).toBeUndefined();
    expect(run.status).toBe('COMPLETED');
    const joined = run.output.joined as Record<string, { doubled: number }>;
    expect(Object.keys(joined)).toHaveLength(1000);
    expect(joined._crunch_999).toEqual({ doubled: 1998 });
  }, 600_000);
});
