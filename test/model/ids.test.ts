/**
 * Task ids (lib/model/ids.ts): runs stored before generations keep the ids they had; a run's
 * generation and epoch give its tasks ids of their own; isRowOf tells a run's rows from rows an
 * earlier run under the same id left, in every epoch of the run.
 */
import { describe, expect, it } from 'vitest';
import { derivedId, generationAt, isRowOf, taskIdOf } from '../../lib/model/ids.ts';

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
