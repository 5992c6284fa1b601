/**
 * The store meter's index writes (bench/lib/table-model.ts): DynamoDB's rules applied to every index
 * of a TableSpec, on items built by the adapters' own item builders and on hand-made ones.
 */

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { meteredStores } from '../../bench/lib/metered-stores.ts';
import { StoreMeter } from '../../bench/lib/store-meter.ts';
import { type Item, indexWritesOf, TableModel } from '../../bench/lib/table-model.ts';
import { diffSnapshots, emptyTally, INDEXES, METERED_TABLES } from '../../bench/lib/tally.ts';
import { taskIdOf } from '../../lib/model/ids.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { taskItem, workflowItem } from '../../lib/store/dynamodb/execution-items.ts';
import { EXECUTIONS_TABLE, type TableSpec } from '../../lib/store/dynamodb/tables.ts';
import { taskOf, workflowOf } from '../store/executions.contract.ts';

/** Index name -> writes, for compact expectations. */
const writesOf = (spec: TableSpec, before: Item | undefined, after: Item | undefined) =>
  Object.fromEntries(indexWritesOf(spec, before, after).map((w) => [w.index, w.writes]));

const run = workflowOf('run-1');
const row = taskOf('run-1', 'task-1', 1);

describe('index writes of the executions table, from its spec', () => {
  it('a row of a run from before homes writes byTask and byTaskType when created, no index when updated', () => {
    const created = taskItem(row);
    expect(writesOf(EXECUTIONS_TABLE, undefined, created)).toEqual({
      'executions.byTask': 1,
      'executions.byTaskType': 1,
    });
    const completed = taskItem({ ...row, status: 'COMPLETED', outputData: { ok: true }, rev: 2 });
    expect(writesOf(EXECUTIONS_TABLE, created, completed)).toEqual({});
  });

  it('a homed row (a run created since homes) is found by its key: its create writes byTaskType alone', () => {
    const homedRun = workflowOf('run-1', { generation: 'g1', homedTaskIds: true });
    const homed = taskOf('run-1', taskIdOf(homedRun, 'ref_1', 0), 1);
    const created = taskItem(homed);
    expect(writesOf(EXECUTIONS_TABLE, undefined, created)).toEqual({ 'executions.byTaskType': 1 });
    const completed = taskItem({ ...homed, status: 'COMPLETED', outputData: { ok: true }, rev: 2 });
    expect(writesOf(EXECUTIONS_TABLE, created, completed)).toEqual({});
  });

  it('a run create writes byName and byStartDay, and byCorrelation only with a correlation id', () => {
    expect(writesOf(EXECUTIONS_TABLE, undefined, workflowItem(run))).toEqual({
      'executions.byName': 1,
      'executions.byStartDay': 1,
    });
    const correlated = workflowItem(workflowOf('run-2', { correlationId: 'order-7' }));
    expect(writesOf(EXECUTIONS_TABLE, undefined, correlated)).toEqual({
      'executions.byName': 1,
      'executions.byStartDay': 1,
      'executions.byCorrelation': 1,
    });
  });

  it('a commit that changes the status rewrites byName and byStartDay (they project it), not byCorrelation', () => {
    const before = workflowItem(workflowOf('run-2', { correlationId: 'order-7' }));
    const after = workflowItem(
      workflowOf('run-2', { correlationId: 'order-7', status: 'COMPLETED', rev: 2 }),
    );
    expect(writesOf(EXECUTIONS_TABLE, before, after)).toEqual({
      'executions.byName': 1,
      'executions.byStartDay': 1,
    });
  });

  it('a commit that changes nothing projected writes no index', () => {
    const after = workflowItem({
      ...run,
      rev: 2,
      seq: 3,
      variables: { step: 2 },
      updateTime: run.updateTime + 5,
    });
    expect(writesOf(EXECUTIONS_TABLE, workflowItem(run), after)).toEqual({});
  });

  it('the sparse wakeups index: entering and leaving cost one write, moving the key two', () => {
    const at = (wakeAt: number) => workflowItem({ ...run, wakeAt });
    expect(writesOf(EXECUTIONS_TABLE, at(0), at(5000))).toEqual({ 'executions.wakeups': 1 });
    expect(writesOf(EXECUTIONS_TABLE, at(5000), at(9000))).toEqual({ 'executions.wakeups': 2 });
    expect(writesOf(EXECUTIONS_TABLE, at(9000), at(0))).toEqual({ 'executions.wakeups': 1 });
  });

  it('a delete takes the item out of every index it was in', () => {
    expect(writesOf(EXECUTIONS_TABLE, taskItem(row), undefined)).toEqual({
      'executions.byTask': 1,
      'executions.byTaskType': 1,
    });
  });
});

describe('index writes by projection, on a hand-made table', () => {
  const spec: TableSpec = {
    id: 'demo',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [
      { name: 'keys', partitionKey: 'g', sortKey: 'sk', projection: { type: 'KEYS_ONLY' } },
      { name: 'some', partitionKey: 'g', sortKey: 'sk', projection: { type: 'INCLUDE', attributes: ['a'] } },
    ],
    localIndexes: [{ name: 'all', sortKey: 'order' }],
    ttlAttribute: 'ttl',
  };
  const base = { pk: 'p', sk: 's', g: 'G', order: '01', a: 1, b: 'x' };

  it('KEYS_ONLY ignores non-key changes, INCLUDE its listed attributes, ALL any attribute', () => {
    expect(writesOf(spec, base, { ...base, b: 'y' })).toEqual({ 'demo.all': 1 });
    expect(writesOf(spec, base, { ...base, a: 2 })).toEqual({ 'demo.some': 1, 'demo.all': 1 });
    expect(writesOf(spec, base, { ...base })).toEqual({});
  });

  it('an index key change is a delete and a put; a table key change moves the item in every index', () => {
    // `all` projects every attribute, g among them: an update there.
    expect(writesOf(spec, base, { ...base, g: 'H' })).toEqual({
      'demo.keys': 2,
      'demo.some': 2,
      'demo.all': 1,
    });
    expect(writesOf(spec, base, { ...base, order: '02' })).toEqual({ 'demo.all': 2 });
    expect(writesOf(spec, base, { ...base, sk: 't' })).toEqual({
      'demo.keys': 2,
      'demo.some': 2,
      'demo.all': 2,
    });
  });

  it('an item without an index key attribute is not in that index (sparse)', () => {
    const { g: _g, ...noG } = base;
    expect(writesOf(spec, undefined, noG)).toEqual({ 'demo.all': 1 });
    expect(writesOf(spec, noG, base)).toEqual({ 'demo.keys': 1, 'demo.some': 1, 'demo.all': 1 });
  });

  it('units: one per started KB of the index entry; KEYS_ONLY entries stay small, ALL copies the item', () => {
    const big = { ...base, b: 'x'.repeat(3000) };
    const units = Object.fromEntries(indexWritesOf(spec, undefined, big).map((w) => [w.index, w.units]));
    expect(units).toEqual({ 'demo.keys': 1, 'demo.some': 1, 'demo.all': 3 });
    // A key change pays for the entry deleted and the entry put.
    const moved = indexWritesOf(spec, big, { ...big, order: '02' });
    expect(moved).toEqual([{ index: 'demo.all', writes: 2, units: 6 }]);
  });

  it('the table model compares each write with the item it replaces', () => {
    const model = new TableModel(spec);
    expect(model.write('p', 's', base).writes.map((w) => w.index)).toEqual([
      'demo.keys',
      'demo.some',
      'demo.all',
    ]);
    expect(model.write('p', 's', base).writes).toEqual([]);
    expect(model.ids('p')).toEqual(['s']);
    expect(model.write('p', 's', undefined).before).toEqual(base);
    expect(model.ids('p')).toEqual([]);
  });
});

describe('the store meter', () => {
  it('reports every index of the metered tables, from their specs', () => {
    const all = METERED_TABLES.flatMap((spec) => [
      ...spec.indexes.map((i) => `${spec.id}.${i.name}`),
      ...(spec.localIndexes ?? []).map((i) => `${spec.id}.${i.name}`),
    ]);
    expect([...INDEXES].sort()).toEqual(all.sort());
    expect(INDEXES).toContain('executions.byTaskType');
    expect(INDEXES).toContain('executions.byStartDay');
    expect(INDEXES).toContain('executions.byCorrelation');
  });

  it('counts the index writes of a run and a task row written through the metered store', async () => {
    const meter = new StoreMeter({ sizes: true });
    const stores = meteredStores(meter, createMemoryStores());
    await stores.executions.createWorkflow(workflowOf('run-9', { correlationId: 'c-1' }));
    await stores.executions.createTasks([taskOf('run-9', 'task-9', 1)]);
    await stores.executions.commitWorkflow(workflowOf('run-9', { correlationId: 'c-1', rev: 2 }), 1);
    await stores.executions.commitWorkflow(
      workflowOf('run-9', { correlationId: 'c-1', rev: 3, status: 'COMPLETED' }),
      2,
    );
    const totals = [...meter.snapshot().ops.values()].reduce((sum, t) => {
      for (const [index, n] of Object.entries(t.byIndex)) sum.byIndex[index] = (sum.byIndex[index] ?? 0) + n;
      sum.indexWrites += t.indexWrites;
      return sum;
    }, emptyTally());
    expect(totals.byIndex).toMatchObject({
      'executions.byName': 2,
      'executions.byStartDay': 2,
      'executions.byCorrelation': 1,
      'executions.byTask': 1,
      'executions.byTaskType': 1,
      'executions.wakeups': 0,
    });
    expect(totals.indexWrites).toBe(7);
    await stores.close();
  });

  it('bills a delete by the size of the item it deletes, and counts no bytes written for it', async () => {
    const meter = new StoreMeter({ sizes: true });
    const stores = meteredStores(meter, createMemoryStores());
    const big = taskOf('run-8', 'task-8', 1, { inputData: { blob: randomBytes(3000).toString('base64') } });
    await stores.executions.createWorkflow(workflowOf('run-8'));
    await stores.executions.createTasks([big]);
    const before = meter.snapshot();
    await stores.executions.deleteTasks('run-8', ['task-8']);
    const removal = diffSnapshots(meter.snapshot(), before).ops.get(`other\u0000executions.deleteTasks`);
    // About 4 KB of deflate-proof row: 4 units for the delete, one each for byTask and byTaskType.
    expect(removal).toMatchObject({ writes: 1, bytesWritten: 0, indexWrites: 2, writeUnits: 6 });
    await stores.close();
  });
});
