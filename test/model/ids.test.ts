/**
 * Task ids (lib/model/ids.ts): runs stored before generations keep the ids they had; a run's
 * generation and epoch give its tasks ids of their own; isRowOf tells a run's rows from rows an
 * earlier run under the same id left, in every epoch of the run.
 */
import { describe, expect, it } from 'vitest';
import {
  derivedId,
  generationAt,
  homeOf,
  homeOfTask,
  isHomedTaskOf,
  isRowOf,
  taskIdOf,
} from '../../lib/model/ids.ts';

const row = (taskId: string, referenceTaskName: string, retryCount = 0) => ({
  taskId,
  referenceTaskName,
  retryCount,
});

describe('task ids', () => {
  it('keeps the ids of runs stored before generations', () => {
    expect(taskIdOf({ workflowId: 'w' }, 'a', 0)).toBe(derivedId('task', 'w', 'a', 0));
    expect(taskIdOf({ workflowId: 'w', epoch: 2 }, 'a', 1)).toBe(derivedId('task', 'w', 'a', 1, 2));
    // A legacy run's rows are all its own.
    expect(isRowOf({ workflowId: 'w' }, row('anything', 'a'))).toBe(true);
  });

  it("gives each generation and epoch its own ids, and tells a run's rows from an earlier run's", () => {
    const earlier = { workflowId: 'w', generation: 'aaaa0001' };
    const run = { workflowId: 'w', generation: 'bbbb0002', epoch: 2 };
    const ids = new Set([
      taskIdOf(earlier, 'a', 0),
      taskIdOf({ workflowId: 'w' }, 'a', 0),
      ...[0, 1, 2].map((epoch) => taskIdOf(run, 'a', 0, epoch)),
      taskIdOf(run, 'a', 1),
    ]);
    expect(ids.size).toBe(6);
    expect(taskIdOf(run, 'a', 0)).toBe(taskIdOf(run, 'a', 0, 2));

    for (const epoch of [0, 1, 2]) expect(isRowOf(run, row(taskIdOf(run, 'a', 1, epoch), 'a', 1))).toBe(true);
    expect(isRowOf(run, row(taskIdOf(run, 'a', 1), 'a', 0))).toBe(false);
    expect(isRowOf(run, row(taskIdOf(earlier, 'a', 0), 'a'))).toBe(false);
    expect(isRowOf(run, row(taskIdOf({ workflowId: 'w' }, 'a', 0), 'a'))).toBe(false);
    expect(isRowOf(run, row(taskIdOf({ ...run, epoch: 3 }, 'a', 0), 'a'))).toBe(false);
  });

  it('takes the generation from the creation time', () => {
    expect(generationAt(1_700_000_000_000)).toBe((1_700_000_000_000).toString(36));
    expect(generationAt(1_700_000_000_000)).not.toBe(generationAt(1_700_000_000_001));
  });
});

describe('homed task ids', () => {
  const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const run = { workflowId: 'w-1', generation: 'g1', homedTaskIds: true as const };

  it("begin with their run's home and stay well-formed, deterministic UUIDs", () => {
    const id = taskIdOf(run, 'a', 0);
    expect(id).toMatch(UUID_V5);
    expect(homeOf('w-1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}$/);
    expect(homeOfTask(id)).toBe(homeOf('w-1'));
    expect(taskIdOf(run, 'a', 0)).toBe(id);
    // The tail is the unhomed id's: the same parts tell the tasks apart.
    expect(id.slice(18)).toBe(taskIdOf({ ...run, homedTaskIds: undefined }, 'a', 0).slice(18));
    expect(isHomedTaskOf('w-1', id)).toBe(true);
    expect(isHomedTaskOf('w-2', id)).toBe(false);
    expect(isHomedTaskOf('w-1', taskIdOf({ workflowId: 'w-1', generation: 'g1' }, 'a', 0))).toBe(false);
    expect(isHomedTaskOf('w-1', homeOf('w-1'))).toBe(false);
  });

  it('are distinct per task, and isRowOf knows them in every epoch', () => {
    const restarted = { ...run, epoch: 2 };
    const ids = [
      ...[0, 1, 2].map((epoch) => taskIdOf(restarted, 'a', 0, epoch)),
      taskIdOf(run, 'a', 1),
      taskIdOf(run, 'b', 0),
      taskIdOf({ ...run, generation: 'g2' }, 'a', 0),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map(homeOfTask))).toEqual(new Set([homeOf('w-1')]));
    expect(isRowOf(restarted, row(taskIdOf(restarted, 'a', 0, 1), 'a'))).toBe(true);
    expect(isRowOf(restarted, row(taskIdOf({ ...run, generation: 'g2' }, 'a', 0), 'a'))).toBe(false);
  });
});
