import { describe, expect, it } from 'vitest';
import {
  billedMs,
  CONFIGURED_DECIDER_BATCH,
  costPerTask,
  type PerTask,
  PRICES,
  totalPerTask,
  withoutStorage,
} from '../../bench/lib/cost-model.ts';
import { decider } from '../../lib/jobs/decision-consumers.ts';

const perTask = (httpRequests: number): PerTask => ({
  httpRequests,
  httpStoreCalls: 2 * httpRequests,
  httpCpuMs: 0.5,
  decisionMessages: 1.2,
  timerMessages: 0,
  decideStoreCalls: 4,
  decideCpuMs: 1,
  readUnits: 10,
  writeUnits: 20,
  s3Puts: 0,
  s3Gets: 0,
});

const options = (deciderBatch: number) => ({
  http: { memoryMb: 512 },
  decider: { memoryMb: 1024 },
  timer: { memoryMb: 512 },
  deciderBatch,
  storeMs: 5,
  sqsMs: 10,
});

const line = (lines: ReturnType<typeof costPerTask>, prefix: string) => {
  const found = lines.find((l) => l.item.startsWith(prefix));
  if (!found) throw new Error(`no line ${prefix}`);
  return found;
};

describe('the cost model', () => {
  it("names the decision queue's configured batch size", () => {
    expect(CONFIGURED_DECIDER_BATCH).toBe(decider.queue.batchSize);
  });

  it('bills CPU stretched by the memory share plus sequential round trips, in whole ms', () => {
    // 1,769 MB is one vCPU: 1.2 ms of CPU + 2 store calls x 5 ms + 1 send x 10 ms = 21.2 -> 22.
    expect(
      billedMs({ memoryMb: 1769 }, { cpuMs: 1.2, storeCalls: 2, sends: 1 }, { storeMs: 5, sqsMs: 10 }),
    ).toBe(22);
    // Half the memory, half the CPU share: 2 ms of CPU bills 4 ms.
    expect(
      billedMs({ memoryMb: 1769 / 2 }, { cpuMs: 2, storeCalls: 0, sends: 0 }, { storeMs: 5, sqsMs: 10 }),
    ).toBe(4);
  });

  it('prices request units on-demand by default, and per unit used on provisioned tables', () => {
    const onDemand = costPerTask(perTask(2.2), options(1));
    expect(line(onDemand, 'DynamoDB writes').perTask).toBeCloseTo(20 * 0.625e-6, 12);
    expect(line(onDemand, 'DynamoDB reads').perTask).toBeCloseTo(10 * 0.125e-6, 12);
    // A write unit-hour is 3,600 one-KB writes; at 70% use each write carries 1/0.7 of its share.
    const provisioned = costPerTask(perTask(2.2), {
      ...options(1),
      tables: { mode: 'provisioned', utilization: 0.7 },
    });
    expect(line(provisioned, 'DynamoDB writes').perTask).toBeCloseTo((20 * 0.00065) / 3600 / 0.7, 12);
    expect(line(provisioned, 'DynamoDB reads').perTask).toBeCloseTo((10 * 0.00013) / 3600 / 0.7, 12);
    expect(line(provisioned, 'DynamoDB writes').detail).toContain('provisioned at 70% use');
    // Everything else is priced the same.
    expect(line(provisioned, 'API Gateway').perTask).toBe(line(onDemand, 'API Gateway').perTask);
  });

  it('prices API Gateway by requests per task, so fewer requests (update-v2) cost less', () => {
    const plain = costPerTask(perTask(2.2), options(1));
    const sdk = costPerTask(perTask(1.25), options(1));
    expect(line(plain, 'API Gateway').perTask).toBeCloseTo(2.2 * PRICES.apiRequest, 12);
    expect(line(sdk, 'API Gateway').perTask).toBeCloseTo(1.25 * PRICES.apiRequest, 12);
    expect(totalPerTask(sdk)).toBeLessThan(totalPerTask(plain));
  });

  it('counts a FIFO send per decision message and a receive and delete per decider invocation', () => {
    const one = line(costPerTask(perTask(2), options(1)), 'SQS');
    const ten = line(costPerTask(perTask(2), options(10)), 'SQS');
    // batch 1: 1.2 sends + 2 x 1.2 invocations; batch 10: 1.2 + 2 x 0.12.
    expect(one.perTask).toBeCloseTo(3.6 * PRICES.sqsFifoRequest, 12);
    expect(ten.perTask).toBeCloseTo(1.44 * PRICES.sqsFifoRequest, 12);
  });

  it("overlaps the round trips of a batch's concurrent decides and adds up their CPU", () => {
    const one = line(costPerTask(perTask(2), options(1)), 'Lambda, decider');
    const ten = line(costPerTask(perTask(2), options(10)), 'Lambda, decider');
    // 1,024 MB is 0.579 of a vCPU. Batch 1: 1/0.579 + 4 x 5 + 10 = 31.7 -> 32 ms;
    // batch 10: 10/0.579 + 4 x 5 + 10 = 47.3 -> 48 ms, for a tenth of the invocations.
    expect(one.detail).toContain('1.20 invocations x 32 ms');
    expect(ten.detail).toContain('0.12 invocations x 48 ms');
    expect(ten.perTask).toBeLessThan(one.perTask);
  });

  it('prices the design floor: every line but DynamoDB', () => {
    const lines = costPerTask(perTask(1.25), options(10));
    const floor = withoutStorage(lines);
    expect(floor.map((l) => l.item)).not.toContain('DynamoDB writes');
    expect(floor.map((l) => l.item)).toContain('API Gateway HTTP API requests');
    const storage = line(lines, 'DynamoDB writes').perTask + line(lines, 'DynamoDB reads').perTask;
    expect(storage).toBeGreaterThan(0);
    expect(totalPerTask(floor)).toBeCloseTo(totalPerTask(lines) - storage, 12);
  });
});
