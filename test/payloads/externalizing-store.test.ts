/**
 * The externalizing execution store under the engine: what the underlying store holds (only paths
 * for large payloads, every record under DynamoDB's item cap), what readers get back (whole
 * payloads), and the write rules (paths derived from the data, uploads adopted, the run record's
 * budget, content keys stored once).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonBytesUpTo } from '../../lib/payloads/externalizing-store.ts';
import { contentKey } from '../../lib/payloads/keys.ts';
import { MemoryPayloadStore } from '../../lib/payloads/memory.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { workflowItem } from '../../lib/store/dynamodb/execution-items.ts';
import type { Stores } from '../../lib/store/ports.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { ref, worker } from '../helpers/fixtures.ts';
import { prng } from '../helpers/fuzz.ts';

const THRESHOLD = 1024;
let h: EngineHarness;
let raw: Stores;
let payloads: MemoryPayloadStore;

async function harness(properties: Record<string, number> = {}): Promise<EngineHarness> {
  raw = createMemoryStores();
  payloads = new MemoryPayloadStore();
  h = await engineHarness({
    stores: raw,
    payloads,
    properties: { 'service.external-payload.threshold-bytes': THRESHOLD, ...properties },
  });
  await h.register({
    name: 'pipeline',
    tasks: [worker('produce'), worker('consume', { inputParameters: { whole: ref('produce.output') } })],
    outputParameters: { all: ref('produce.output.items') },
  });
  return h;
}

afterEach(() => h.close());

const big = (n: number) => ({ items: Array.from({ length: n }, (_, i) => `item number ${i}`) });

describe('the externalizing store', () => {
  it('keeps only the path in stored records, and gives readers (and the decider) the whole payload', async () => {
    await harness();
    const output = big(500);
    const id = await h.start('pipeline', { small: true });
    const produced = await h.work('produce', output);

    const storedRow = await raw.executions.getTask(id, produced.taskId);
    expect(storedRow?.outputData).toEqual({});
    expect(storedRow?.externalOutputPayloadStoragePath).toBe(contentKey(JSON.stringify(output)));
    const storedRun = await raw.executions.getWorkflow(id);
    const embedded = storedRun?.tasks.find((t) => t.taskId === produced.taskId);
    expect(embedded?.outputData).toEqual({});
    expect(JSON.stringify(storedRun).length).toBeLessThan(10_000);

    // Templated whole into the next task's input: the same content, so the same key, stored once.
    const consume = await h.poll('consume');
    expect(consume?.inputData).toEqual({ whole: output });
    expect((await h.task(id, 'produce'))?.outputData).toEqual(output);
    const sizeBefore = payloads.size;
    if (!consume) throw new Error('no consume task');
    await h.complete(consume, { ok: true });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ all: output.items });
    expect(run.externalOutputPayloadStoragePath).toMatch(/^sha256\//);
    expect((await raw.executions.getWorkflow(id))?.output).toEqual({});
    expect(payloads.size).toBe(sizeBefore + 1);
    expect(run.input).toEqual({ small: true });
    expect(run.externalInputPayloadStoragePath).toBeUndefined();
  });

  it('derives the path from the data on every write: a copy with new data drops the old path', async () => {
    await harness();
    const id = await h.start('pipeline', {});
    const produced = await h.work('produce', big(500));
    const row = await h.stores.executions.getTask(id, produced.taskId);
    if (!row) throw new Error('no row');
    await h.stores.executions.updateTask({ ...row, outputData: { reset: true }, rev: row.rev + 1 }, row.rev);
    const read = await h.stores.executions.getTask(id, produced.taskId);
    expect(read?.outputData).toEqual({ reset: true });
    expect(read?.externalOutputPayloadStoragePath).toBeUndefined();
  });

  it('moves the largest inline payloads out when the run record would exceed its budget', async () => {
    await harness({ 'service.external-payload.record-budget-bytes': 1500 });
    const id = await h.start('pipeline', {});
    // Each under the threshold, together over the record budget.
    await h.work('produce', { items: ['a'.repeat(900)] });
    const storedRun = await raw.executions.getWorkflow(id);
    const consume = storedRun?.tasks.find((t) => t.referenceTaskName === 'consume');
    const produce = storedRun?.tasks.find((t) => t.referenceTaskName === 'produce');
    const external = [produce?.externalOutputPayloadStoragePath, consume?.externalInputPayloadStoragePath];
    expect(external.filter(Boolean).length).toBeGreaterThan(0);
    // The task rows themselves are within the threshold, so they keep their data inline.
    const rows = await raw.executions.listTasks(id);
    expect(rows.every((t) => t.externalOutputPayloadStoragePath === undefined)).toBe(true);
    expect((await h.task(id, 'consume'))?.inputData).toEqual({ whole: { items: ['a'.repeat(900)] } });
  });

  it("keeps a record within a DynamoDB item when a fork's many small outputs add up", async () => {
    await harness({ 'service.external-payload.threshold-bytes': 64 * 1024 });
    await h.register({
      name: 'fan_out',
      tasks: [
        {
          name: 'fan',
          taskReferenceName: 'fan',
          type: 'FORK_JOIN_DYNAMIC',
          inputParameters: { forkTaskName: 'label', forkTaskInputs: ref('workflow.input.items') },
        },
        { name: 'gather', taskReferenceName: 'gather', type: 'JOIN' },
      ],
    });
    const branches = 250;
    const id = await h.start('fan_out', { items: Array.from({ length: branches }, (_, n) => ({ n })) });
    // 1.8 KB of output each that does not deflate: 450 KB together, far under the 64 KB threshold each.
    const outputs = new Map<string, Record<string, unknown>>();
    for (let i = 0; i < branches - 1; i++) {
      const task = await h.poll('label');
      if (!task) throw new Error('no branch to work');
      const output = { label: randomBytes(1350).toString('base64') };
      outputs.set(task.taskId, output);
      await h.complete(task, output);
    }
    const stored = await raw.executions.getWorkflow(id);
    if (!stored) throw new Error('no run');
    // What stays inline is within the record budget (256 KB by default), and the item DynamoDB
    // would store (deflated) within its 400 KB.
    const inline = [stored.input, stored.output, ...stored.tasks.flatMap((t) => [t.inputData, t.outputData])];
    const inlineBytes = inline.reduce((sum, payload) => sum + Buffer.byteLength(JSON.stringify(payload)), 0);
    expect(inlineBytes).toBeLessThanOrEqual(256 * 1024);
    expect((workflowItem(stored).bodyZ as Uint8Array).byteLength).toBeLessThan(400 * 1024);
    expect(stored.tasks.filter((t) => t.externalOutputPayloadStoragePath).length).toBeGreaterThan(0);
    // Readers, the decider included, get every output back.
    const run = await h.run(id);
    for (const [taskId, output] of outputs) {
      expect(run.tasks.find((t) => t.taskId === taskId)?.outputData).toEqual(output);
    }
    await h.work('label', { label: 'last' });
    const done = await h.run(id);
    expect(done.status).toBe('COMPLETED');
    expect(Object.keys((await h.task(id, 'gather'))?.outputData ?? {})).toHaveLength(branches);
  });

  it('adopts a payload uploaded by a client and stores it under its content key', async () => {
    await harness();
    const upload = 'task-output/11111111-2222-4333-8444-555555555555.json';
    const output = big(300);
    await payloads.put(upload, JSON.stringify(output));
    const id = await h.start('pipeline', {});
    const task = await h.poll('produce');
    if (!task) throw new Error('no task');
    await h.services.engine.tasks.update({
      workflowInstanceId: id,
      taskId: task.taskId,
      status: 'COMPLETED',
      externalOutputPayloadStoragePath: upload,
    });
    await h.settle();
    const stored = await raw.executions.getTask(id, task.taskId);
    expect(stored?.externalOutputPayloadStoragePath).toBe(contentKey(JSON.stringify(output)));
    expect((await h.task(id, 'produce'))?.outputData).toEqual(output);
    expect((await h.poll('consume'))?.inputData).toEqual({ whole: output });
  });
});

describe('jsonBytesUpTo', () => {
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

  it('bounds the JSON bytes of a payload from above, all but exactly for plain ASCII', () => {
    const samples = [
      {},
      { a: 1, b: -1.2345678901234568e-300, c: true, d: null, e: [] },
      // The longest numbers JSON writes: 25 bytes each.
      Array.from({ length: 10 }, () => -0.0000012345678901234567),
      [-1.2345678901234568e-300, -123456789012345680000, -0],
      { s: 'x'.repeat(1000), n: [1, 2, { deep: 'é"\\n' }] },
      { ключ: '日本語', emoji: '😀'.repeat(10), control: '\u0001\t' },
      { quoted: 'say "hi"', slash: 'a\\b' },
    ];
    for (const sample of samples) {
      expect(jsonBytesUpTo(sample, Number.MAX_SAFE_INTEGER)).toBeGreaterThanOrEqual(bytes(sample));
    }
    const plain = { order: 'ord-1042', items: ['sku-1', 'sku-2'], note: 'ship by Friday' };
    // Off by one comma an object or array at most.
    expect(jsonBytesUpTo(plain, Number.MAX_SAFE_INTEGER) - bytes(plain)).toBe(2);
  });

  it('bounds random JSON from above: any character, number and nesting', () => {
    const random = prng(11_27);
    const chars = ['a', 'Z', ' ', '"', '\\', '\n', '\u0001', '\u2028', 'é', '日', '😀', '\ud800', '\udfff'];
    const text = () =>
      Array.from(
        { length: Math.floor(random() * 12) },
        () => chars[Math.floor(random() * chars.length)],
      ).join('');
    const numbers = [
      0,
      -0,
      1e21,
      -1e-7,
      123.456,
      -0.0000012345678901234567,
      Number.MAX_VALUE,
      -Number.MIN_VALUE,
    ];
    const value = (depth: number): unknown => {
      const pick = Math.floor(random() * (depth > 3 ? 4 : 6));
      if (pick === 0) return text();
      if (pick === 1) return numbers[Math.floor(random() * numbers.length)] as number;
      if (pick === 2) return random() < 0.5 ? null : random() < 0.5;
      if (pick === 3) return random() * 10 ** Math.floor(random() * 40 - 20);
      if (pick === 4) return Array.from({ length: Math.floor(random() * 5) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 5) }, () => [text(), value(depth + 1)]),
      );
    };
    for (let i = 0; i < 5000; i++) {
      const sample = value(0);
      expect(jsonBytesUpTo(sample, Number.MAX_SAFE_INTEGER)).toBeGreaterThanOrEqual(bytes(sample));
    }
  });

  it('stops counting once past the limit', () => {
    const big = { items: Array.from({ length: 100_000 }, (_, i) => `item-${i}`) };
    const counted = jsonBytesUpTo(big, 1000);
    expect(counted).toBeGreaterThan(1000);
    expect(counted).toBeLessThan(bytes(big));
    // One string past the limit is counted without being scanned.
    expect(jsonBytesUpTo({ s: 'é'.repeat(10_000) }, 1000)).toBeGreaterThan(1000);
  });
});
