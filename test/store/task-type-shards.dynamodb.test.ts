/**
 * The byTaskType index spreads one task type over TYPE_SHARDS keys (lib/store/dynamodb/
 * execution-items.ts), so a busy type is not one index partition: rows land on several keys,
 * tasksOfTypes finds them all and rows written before the shards (bare type key) too, and a type
 * whose name looks like another's shard key is not mixed in. On in-process dynalite.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import { TYPE_SHARDS, taskItem, taskTypeKeys } from '../../lib/store/dynamodb/execution-items.ts';
import { freshExecutionsTable, useTestDynamo } from '../helpers/dynamo.ts';
import { taskOf, workflowOf } from './executions.contract.ts';

const dynamo = useTestDynamo();

async function freshTable() {
  const table = await freshExecutionsTable(dynamo());
  const store = table.store();
  await store.createWorkflow(workflowOf('run-1'));
  /** The byTaskType keys holding at least one row, and how many each holds. */
  const keysHolding = async (taskType: string) => {
    const counts = new Map<string, number>();
    for (const key of taskTypeKeys(taskType)) {
      const entries = await table.indexed('byTaskType', 'taskType', key);
      if (entries.length) counts.set(key, entries.length);
    }
    return counts;
  };
  return { table, store, keysHolding };
}

const ofType = (taskType: string, id: string) => ({ ...taskOf('run-1', id, 1), taskType });

it('spreads the rows of one type over its shard keys, and finds them all', async () => {
  const t = await freshTable();
  const rows = Array.from({ length: 40 }, (_, i) => ofType('busy', `t-${i}`));
  await t.store.createTasks(rows);

  const holding = await t.keysHolding('busy');
  expect(holding.has('busy')).toBe(false);
  expect(holding.size).toBe(TYPE_SHARDS);
  expect([...holding.values()].reduce((a, b) => a + b, 0)).toBe(40);

  const found = await t.store.tasksOfTypes(['busy']);
  expect(found.map((r) => r.taskId).sort()).toEqual(rows.map((r) => r.taskId).sort());
});

it('finds rows written before the shards (keyed by the bare type) beside the new ones', async () => {
  const t = await freshTable();
  const old = ofType('mixed', 'old-row');
  await t.table.client.send(
    new PutCommand({ TableName: t.table.name, Item: { ...taskItem(old), taskType: 'mixed' } }),
  );
  const fresh = ofType('mixed', 'new-row');
  await t.store.createTasks([fresh]);

  expect((await t.keysHolding('mixed')).get('mixed')).toBe(1);
  const found = await t.store.tasksOfTypes(['mixed']);
  expect(found.map((r) => r.taskId).sort()).toEqual(['new-row', 'old-row']);
  // The old row is requeued and searched like any other.
  expect(await t.store.tasksOfTypes(['other'])).toEqual([]);
});

it('keeps apart a type named like another type shard key', async () => {
  const t = await freshTable();
  const plain = Array.from({ length: 12 }, (_, i) => ofType('x', `x-${i}`));
  // A type literally named "x#0", written before the shards: its bare key is shard 0 of "x".
  const lookalike = ofType('x#0', 'lookalike');
  await t.store.createTasks(plain);
  await t.table.client.send(
    new PutCommand({ TableName: t.table.name, Item: { ...taskItem(lookalike), taskType: 'x#0' } }),
  );

  const ofX = await t.store.tasksOfTypes(['x']);
  expect(ofX.map((r) => r.taskId).sort()).toEqual(plain.map((r) => r.taskId).sort());
  expect((await t.store.tasksOfTypes(['x#0'])).map((r) => r.taskId)).toEqual(['lookalike']);
});
