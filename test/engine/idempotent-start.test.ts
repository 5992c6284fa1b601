/**
 * Idempotent starts through the engine over both store adapters (memory and DynamoDB on dynalite):
 * 20 concurrent starts with one idempotency key, and 20 concurrent synchronous executions with one
 * requestId, leave exactly one run; a key whose starter died between its claim and its run (the
 * claim written, no run) is finished by the next start instead of dangling; a key whose run
 * expired (retention) moves on to a new run.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { derivedId } from '../../lib/model/ids.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import type { Stores } from '../../lib/store/ports.ts';
import { startTestDynamo, type TestDynamo } from '../helpers/dynamo.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { systemOnlyWorkflow } from '../helpers/system-only.ts';

const WAITING = {
  name: 'held_flow',
  version: 1,
  tasks: [{ name: 'hold', taskReferenceName: 'hold', type: 'WAIT' }],
};

let dynamo: TestDynamo | undefined;
beforeAll(async () => {
  dynamo = await startTestDynamo();
});
afterAll(async () => {
  await dynamo?.close();
});

const adapters: [string, () => Promise<{ stores: Stores; cleanup(): Promise<void> }>][] = [
  ['memory', async () => ({ stores: createMemoryStores(), cleanup: async () => {} })],
  [
    'DynamoDB (dynalite)',
    async () => {
      if (!dynamo) throw new Error('dynalite did not start');
      return dynamo.freshStores();
    },
  ],
];

describe.each(adapters)('idempotent start over the %s store', (_name, storesFor) => {
  let engine: EngineHarness;
  let cleanup: () => Promise<void>;

  async function setUp(properties: Record<string, string> = {}): Promise<void> {
    const fresh = await storesFor();
    cleanup = fresh.cleanup;
    engine = await engineHarness({ stores: fresh.stores, properties });
    await engine.register(WAITING);
    await engine.register(systemOnlyWorkflow('quick_flow'));
  }

  afterEach(async () => {
    await engine.close();
    await cleanup();
  });

  const runsOf = (name: string) => engine.stores.executions.findWorkflows({ name });

  it('creates exactly one run for 20 concurrent starts with one key', async () => {
    await setUp();
    const { starter } = engine.services.engine;
    const ids = await Promise.all(
      Array.from({ length: 20 }, () =>
        starter.start({ name: 'held_flow', idempotencyKey: 'k', idempotencyStrategy: 'RETURN_EXISTING' }),
      ),
    );
    expect(new Set(ids).size).toBe(1);
    expect((await runsOf('held_flow')).map((r) => r.workflowId)).toEqual([ids[0]]);
  });

  it('creates exactly one run for 20 concurrent synchronous executions with one requestId', async () => {
    await setUp();
    const { execution } = engine.services.engine;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        execution.execute(
          { name: 'quick_flow', input: { n: 0 } },
          { requestId: 'r-1', waitUntilTaskRefs: [], returnStrategy: 'TARGET_WORKFLOW' },
        ),
      ),
    );
    expect(new Set(answers.map((a) => a.workflowId)).size).toBe(1);
    expect(answers.every((a) => a.status === 'COMPLETED')).toBe(true);
    expect(await runsOf('quick_flow')).toHaveLength(1);
  });

  it('finishes the start of a key whose starter died after claiming it', async () => {
    await setUp();
    const claimed = derivedId('idempotency', 'held_flow', 'k');
    await engine.stores.executions.claimIdempotencyKey({
      workflowName: 'held_flow',
      key: 'k',
      workflowId: claimed,
    });
    const id = await engine.services.engine.starter.start({
      name: 'held_flow',
      idempotencyKey: 'k',
      idempotencyStrategy: 'FAIL',
    });
    expect(id).toBe(claimed);
    await engine.settle();
    expect((await engine.run(id)).status).toBe('RUNNING');
  });

  it('moves the key to a new run once the run it points at expired, whatever the strategy', async () => {
    await setUp({ 'service.workflow.retention': '1h' });
    const { starter } = engine.services.engine;
    const start = (n: number, idempotencyStrategy: 'FAIL' | 'RETURN_EXISTING') =>
      starter.start({ name: 'quick_flow', input: { n }, idempotencyKey: 'k', idempotencyStrategy });
    const first = await start(1, 'FAIL');
    await engine.settle();
    expect((await engine.run(first)).status).toBe('COMPLETED');
    await expect(start(2, 'FAIL')).rejects.toThrow(
      `Workflow with idempotencyKey 'k' already exists: ${first}`,
    );

    // Expired; its record is still stored (the memory store keeps it, DynamoDB's TTL comes late).
    await engine.advance(2 * 3_600_000);
    const second = await start(2, 'FAIL');
    expect(second).not.toBe(first);
    await engine.settle();
    expect(await engine.run(second)).toMatchObject({ status: 'COMPLETED', input: { n: 2 } });
    expect(await start(3, 'RETURN_EXISTING')).toBe(second);
  });
});
