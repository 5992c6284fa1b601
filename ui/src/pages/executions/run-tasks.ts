/**
 * The execution page's reading of a run's tasks, pure so it is unit-tested: whether the run is
 * still live (the page refreshes it), a task's reference without its DO_WHILE iteration suffix,
 * the iterations and statuses present (the task table's filters), a reference's attempts (the task
 * panel's Attempt choice), and the timeline: each task as a bar on a shared time axis.
 */
import { durationBetween } from '../../logic/time.ts';

/** The task fields read here. */
export interface RunTask {
  taskId: string;
  referenceTaskName: string;
  status: string;
  seq: number;
  iteration: number;
  retryCount: number;
  scheduledTime: number;
  startTime: number;
  endTime: number;
}

/** A run in one of these statuses can still change, so its page refreshes it. */
export const isLive = (status: string) => status === 'RUNNING' || status === 'PAUSED';

/** The task's reference in the definition: `step__2` (iteration 2 of a loop body) is `step`. */
export const baseRef = (referenceTaskName: string) => referenceTaskName.replace(/(__\d+)+$/, '');

/** The DO_WHILE iterations the tasks belong to, ascending (none when nothing loops). */
export function iterationsOf(tasks: readonly RunTask[]): number[] {
  return [...new Set(tasks.map((t) => t.iteration).filter((n) => n > 0))].sort((a, b) => a - b);
}

/** The statuses present, in their first-seen order. */
export function statusesOf(tasks: readonly RunTask[]): string[] {
  return [...new Set(tasks.map((t) => t.status))];
}

export interface TaskFilter {
  /** 0: every iteration. */
  iteration: number;
  /** '': every status. */
  status: string;
}

export const NO_TASK_FILTER: TaskFilter = { iteration: 0, status: '' };

export function filterTasks<T extends RunTask>(tasks: readonly T[], filter: TaskFilter): T[] {
  return tasks.filter(
    (t) =>
      (filter.iteration === 0 || t.iteration === filter.iteration) &&
      (filter.status === '' || t.status === filter.status),
  );
}

/** Every attempt of the task's definition reference (retries and iterations), in run order. */
export function attemptsOf<T extends RunTask>(tasks: readonly T[], ref: string): T[] {
  return tasks.filter((t) => baseRef(t.referenceTaskName) === ref).sort((a, b) => a.seq - b.seq);
}

/** How an attempt is named in the panel's Attempt choice. */
export function attemptLabel(task: RunTask): string {
  const parts = [`#${task.seq}`];
  if (task.iteration > 0) parts.push(`iteration ${task.iteration}`);
  if (task.retryCount > 0) parts.push(`retry ${task.retryCount}`);
  parts.push(task.status);
  return parts.join(' · ');
}

/** One task on the timeline; offsets and widths are fractions (0..1) of the axis. */
export interface TimelineBar {
  task: RunTask;
  /** Where waiting in the queue begins (scheduled). */
  queued: number;
  /** Where running begins (started; the scheduled time when it never started). */
  start: number;
  /** Where it ends (the end, or now when still going). */
  end: number;
  /** Its run time in ms (start to end, or to now). */
  duration: number | undefined;
  /** Its wait in the queue in ms (scheduled to start). */
  queueWait: number | undefined;
}

export interface Timeline {
  /** Epoch ms of the axis's left and right ends. */
  from: number;
  to: number;
  bars: TimelineBar[];
  /** Tick marks: their place (0..1) and their offset from `from` in ms. */
  ticks: { at: number; offset: number }[];
}

const TICK_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000];

/** A round tick step giving about `count` ticks over `span` ms. */
function tickStep(span: number, count: number): number {
  const raw = span / count;
  const step = TICK_STEPS.find((s) => s >= raw);
  if (step !== undefined) return step;
  const minute = 60_000;
  return Math.ceil(raw / minute) * minute;
}

/** The tasks that were scheduled, as bars in run order over one axis from the first to the last moment. */
export function layoutTimeline(tasks: readonly RunTask[], now: number = Date.now()): Timeline {
  const placed = tasks
    .filter((t) => t.scheduledTime > 0 || t.startTime > 0)
    .sort((a, b) => a.seq - b.seq)
    .map((task) => {
      const queued = task.scheduledTime > 0 ? task.scheduledTime : task.startTime;
      const start = task.startTime > 0 ? task.startTime : queued;
      const end = task.endTime > 0 ? task.endTime : task.startTime > 0 ? now : start;
      return { task, queued, start: Math.max(start, queued), end: Math.max(end, start) };
    });
  if (placed.length === 0) return { from: 0, to: 0, bars: [], ticks: [] };
  const from = Math.min(...placed.map((p) => p.queued));
  const to = Math.max(from + 1, ...placed.map((p) => p.end));
  const span = to - from;
  const at = (ms: number) => (ms - from) / span;
  const step = tickStep(span, 5);
  const ticks = [];
  for (let offset = 0; offset <= span; offset += step) ticks.push({ at: at(from + offset), offset });
  return {
    from,
    to,
    ticks,
    bars: placed.map(({ task, queued, start, end }) => ({
      task,
      queued: at(queued),
      start: at(start),
      end: at(end),
      duration:
        task.startTime > 0 ? durationBetween(task.startTime, task.endTime || undefined, now) : undefined,
      queueWait:
        task.scheduledTime > 0 && task.startTime > 0
          ? Math.max(0, task.startTime - task.scheduledTime)
          : undefined,
    })),
  };
}
