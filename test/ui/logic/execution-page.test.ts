// The execution page's logic without a browser: which runs refresh, iteration references, the task
// table's filters, a task's attempts, the timeline's bars and ticks, the diagram's iteration counts,
// and which actions ask first.
import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../../ui/src/pages/executions/actions.ts';
import { iterationsByRef } from '../../../ui/src/pages/executions/diagram-layout.ts';
import {
  attemptLabel,
  attemptsOf,
  baseRef,
  filterTasks,
  isLive,
  iterationsOf,
  layoutTimeline,
  NO_TASK_FILTER,
  type RunTask,
  statusesOf,
} from '../../../ui/src/pages/executions/run-tasks.ts';

let seq = 0;
const task = (referenceTaskName: string, extra: Partial<RunTask> = {}): RunTask => {
  seq += 1;
  return {
    taskId: `t${seq}`,
    referenceTaskName,
    status: 'COMPLETED',
    seq,
    iteration: 0,
    retryCount: 0,
    scheduledTime: 0,
    startTime: 0,
    endTime: 0,
    ...extra,
  };
};

describe('the execution page’s reading of tasks', () => {
  it('refreshes only runs that can still change', () => {
    expect(['RUNNING', 'PAUSED'].map(isLive)).toEqual([true, true]);
    expect(['COMPLETED', 'FAILED', 'TIMED_OUT', 'TERMINATED'].some(isLive)).toBe(false);
  });

  it('names a loop body task by its definition reference, nested loops included', () => {
    expect(baseRef('step__2')).toBe('step');
    expect(baseRef('step__2__1')).toBe('step');
    expect(baseRef('my__task')).toBe('my__task');
    expect(baseRef('plain')).toBe('plain');
  });

  it('lists the iterations and statuses present and filters by both', () => {
    const tasks = [
      task('loop', { status: 'IN_PROGRESS' }),
      task('step__1', { iteration: 1 }),
      task('step__2', { iteration: 2, status: 'FAILED' }),
      task('step__2', { iteration: 2, retryCount: 1, status: 'IN_PROGRESS' }),
    ];
    expect(iterationsOf(tasks)).toEqual([1, 2]);
    expect(iterationsOf([task('a')])).toEqual([]);
    expect(statusesOf(tasks)).toEqual(['IN_PROGRESS', 'COMPLETED', 'FAILED']);
    expect(filterTasks(tasks, NO_TASK_FILTER)).toHaveLength(4);
    expect(filterTasks(tasks, { iteration: 2, status: '' }).map((t) => t.retryCount)).toEqual([0, 1]);
    expect(filterTasks(tasks, { iteration: 2, status: 'FAILED' })).toHaveLength(1);
    expect(
      filterTasks(tasks, { iteration: 0, status: 'IN_PROGRESS' }).map((t) => t.referenceTaskName),
    ).toEqual(['loop', 'step__2']);
  });

  it('gathers a task’s attempts in run order and names them', () => {
    const later = task('step__2', { iteration: 2, retryCount: 1, status: 'SCHEDULED' });
    const earlier = task('step__1', { iteration: 1 });
    const attempts = attemptsOf([later, task('other'), earlier], 'step');
    expect(attempts).toEqual([later, earlier].sort((a, b) => a.seq - b.seq));
    expect(attemptLabel(later)).toBe(`#${later.seq} · iteration 2 · retry 1 · SCHEDULED`);
    expect(attemptLabel(task('x', { seq: 4 }))).toBe('#4 · COMPLETED');
  });
});

describe('the timeline', () => {
  it('places each task’s queue wait and run time on one axis, the running one up to now', () => {
    const t0 = 1_700_000_000_000;
    const first = task('first', { scheduledTime: t0, startTime: t0 + 100, endTime: t0 + 300 });
    const second = task('second', {
      scheduledTime: t0 + 300,
      startTime: t0 + 500,
      endTime: 0,
      status: 'IN_PROGRESS',
    });
    const waiting = task('waiting', { scheduledTime: t0 + 800, status: 'SCHEDULED' });
    const timeline = layoutTimeline([second, waiting, first], t0 + 1000);
    expect(timeline.from).toBe(t0);
    expect(timeline.to).toBe(t0 + 1000);
    expect(timeline.bars.map((b) => b.task.referenceTaskName)).toEqual(['first', 'second', 'waiting']);
    const [a, b, c] = timeline.bars;
    expect([a?.queued, a?.start, a?.end, a?.duration, a?.queueWait]).toEqual([0, 0.1, 0.3, 200, 100]);
    expect([b?.start, b?.end, b?.duration]).toEqual([0.5, 1, 500]);
    // Scheduled, never started: a queue stretch and no run time.
    expect([c?.queued, c?.start, c?.end, c?.duration, c?.queueWait]).toEqual([
      0.8,
      0.8,
      0.8,
      undefined,
      undefined,
    ]);
    expect(timeline.ticks.map((t) => t.offset)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(timeline.ticks.at(-1)?.at).toBe(1);
  });

  it('is empty before any task is scheduled, and spans at least a millisecond', () => {
    expect(layoutTimeline([task('none')]).bars).toEqual([]);
    const t = 1_700_000_000_000;
    const instant = layoutTimeline([task('x', { scheduledTime: t, startTime: t, endTime: t })]);
    expect(instant.to - instant.from).toBe(1);
    expect(instant.bars[0]?.duration).toBe(0);
  });

  it('uses minute ticks for a long run', () => {
    const t0 = 1_700_000_000_000;
    const long = layoutTimeline([task('x', { scheduledTime: t0, startTime: t0, endTime: t0 + 20 * 60_000 })]);
    expect(long.ticks.map((t) => t.offset / 60_000)).toEqual([0, 4, 8, 12, 16, 20]);
  });
});

describe('the diagram’s iteration counts', () => {
  it('counts a body task’s iterations and takes a loop’s own count', () => {
    const counts = iterationsByRef([
      { referenceTaskName: 'loop', taskType: 'DO_WHILE', outputData: { iteration: 3 } },
      { referenceTaskName: 'step__1', taskType: 'INLINE' },
      { referenceTaskName: 'step__2', taskType: 'INLINE' },
      { referenceTaskName: 'step__2', taskType: 'INLINE' },
      { referenceTaskName: 'inner__1__1', taskType: 'SIMPLE' },
      { referenceTaskName: 'inner__1__2', taskType: 'SIMPLE' },
      { referenceTaskName: 'inner__2__1', taskType: 'SIMPLE' },
      { referenceTaskName: 'plain', taskType: 'SIMPLE' },
    ]);
    expect(Object.fromEntries(counts)).toEqual({ loop: 3, step: 2, inner: 3 });
  });
});

describe('the execution actions', () => {
  it('asks before every action but pause and resume (retry included)', () => {
    expect(ACTIONS.filter((a) => a.confirm).map((a) => a.action)).toEqual([
      'retry',
      'restart',
      'rerun',
      'terminate',
    ]);
  });
});
