/**
 * The in-process run watcher (lib/workflows/progress.ts): a published change wakes the watches of
 * that run, also one published before the wait began; other runs' changes do not; the re-read tick
 * (AWS) and the timeout end a wait with their own reason; closing unsubscribes.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { LocalRunWatcher, publishingExecutions, waitForRevision } from '../../lib/workflows/progress.ts';
import { workflowOf } from '../store/executions.contract.ts';

describe('LocalRunWatcher', () => {
  it('wakes a waiting watch when its run is published', async () => {
    const watcher = new LocalRunWatcher();
    const watch = watcher.watch(['wf-1']);
    const woken = watch.next(60_000);
    watcher.publish('wf-1');
    expect(await woken).toBe('changed');
    watch.close();
  });

  it('reports a change published before the wait began at once', async () => {
    const watcher = new LocalRunWatcher();
    const watch = watcher.watch(['wf-1']);
    watcher.publish('wf-1');
    expect(await watch.next(60_000)).toBe('changed');
    watch.close();
  });

  it('ignores other runs and ends the wait at the timeout', async () => {
    const watcher = new LocalRunWatcher();
    const watch = watcher.watch(['wf-1']);
    watcher.publish('wf-2');
    expect(await watch.next(0)).toBe('timeout');
    watch.close();
  });

  it('watches runs added later (sub-workflows)', async () => {
    const watcher = new LocalRunWatcher();
    const watch = watcher.watch([]);
    watch.add('child');
    const woken = watch.next(60_000);
    watcher.publish('child');
    expect(await woken).toBe('changed');
    watch.close();
  });

  it('ends a wait at the re-read interval when one is set', async () => {
    const watch = new LocalRunWatcher({ rereadMs: 1 }).watch(['wf-1']);
    expect(await watch.next(60_000)).toBe('reread');
    watch.close();
  });

  it('stops reporting to a closed watch', async () => {
    const watcher = new LocalRunWatcher();
    const watch = watcher.watch(['wf-1']);
    watch.close();
    watcher.publish('wf-1');
    expect(await watch.next(0)).toBe('timeout');
  });
});

describe('waitForRevision', () => {
  it('returns once a commit moves the record past the revision, woken by the commit', async () => {
    const watcher = new LocalRunWatcher();
    const executions = publishingExecutions(createMemoryStores().executions, watcher);
    const record = workflowOf('wf-rev', { rev: 1 });
    await executions.createWorkflow(record);
    const waiting = waitForRevision({ executions, watcher, clock: new ManualClock() }, 'wf-rev', 1, 60_000);
    await executions.commitWorkflow({ ...record, rev: 2 }, 1);
    await waiting;
    expect((await executions.getWorkflow('wf-rev'))?.rev).toBe(2);
  });
});
