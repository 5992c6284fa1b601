/**
 * The event loop of one test run, over a throwaway engine (the real executor, decider and task
 * types; fresh memory stores; a private decision queue; a manual clock). Each turn:
 *   1. runs every pending decide (the root's, its children's), as the decision queue would;
 *   2. stops once the root run is over;
 *   3. hands each open task that has a mock to a simulated worker: ready (its queue entry is
 *      visible) -> polled after `queueWaitTime` -> answered with the mock after `executionTime`,
 *      through the real TaskService.update, so a FAILED mock is retried as a worker's failure is;
 *   4. otherwise moves the clock to the next event: a simulated poll or answer, a mocked task
 *      becoming visible (a retry delay, a start delay), a WAIT deadline - and any run wake-up
 *      (timeouts) before it, which is released like the sweeper releases due wake-ups.
 * Time passes only for a pending event, so a run that waits for an unmocked task (left SCHEDULED)
 * or a WAIT without deadline ends the loop at once instead of being fast-forwarded into its
 * timeouts. Retry delays and WAIT durations cost no real time: the clock is set, never waited on.
 */
import type { Executor } from '../../engine/executor.ts';
import { queueEntryOf } from '../../engine/queues.ts';
import type { Clock, ManualClock } from '../../model/clock.ts';
import {
  isTerminalTask,
  isTerminalWorkflow,
  type TaskRecord,
  type WorkflowRecord,
} from '../../model/execution.ts';
import { specOf } from '../../model/task-types/index.ts';
import type { RunStore, TaskQueue, TaskRows } from '../../store/ports.ts';
import type { TaskService } from '../../tasks/service.ts';
import type { WorkflowReader } from '../service.ts';
import type { WorkflowStarter } from '../start.ts';
import type { SimulatedDecisionQueue } from './decision-queue.ts';
import { emptyBook, type MockBook } from './mock-book.ts';
import type { TaskMock } from './request.ts';

/** A throwaway engine: the real engine wiring over its own stores and decision queue. */
export interface SimulationEngine {
  starter: WorkflowStarter;
  executor: Pick<Executor, 'decide'>;
  tasks: Pick<TaskService, 'update'>;
  reader: WorkflowReader;
  executions: RunStore & TaskRows;
  queue: TaskQueue;
}

/** Conductor's bound on a test run's loop (docs/conductor-compat.md §1.6, POST /workflow/test). */
export const MAX_STEPS = 20_000;

/**
 * Wall-clock bound of one test run. A definition that loops on system tasks alone (a DO_WHILE
 * whose condition never fails) grows with every decide, so the step bound alone could hold the
 * request for minutes; this keeps it well under API Gateway's 29-second limit.
 */
export const MAX_RUN_MILLIS = 10_000;

/** The worker id the simulated polls record. */
export const TEST_WORKER = 'workflow-test';

interface InFlight {
  workflowId: string;
  taskId: string;
  mock: TaskMock;
  /** 'waiting' until polled at `at`, then 'running' until answered at `at`. */
  phase: 'waiting' | 'running';
  at: number;
  /** Signal targets (WAIT, HUMAN) are answered in place: nobody polls them. */
  polled: boolean;
}

interface OpenTask {
  task: TaskRecord;
  book: MockBook;
}

export class Simulation {
  private steps = 0;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly books = new Map<string, MockBook>();

  constructor(
    private readonly engine: SimulationEngine,
    private readonly decisions: SimulatedDecisionQueue,
    private readonly clock: ManualClock,
    /** The host's clock, for the wall-clock bound (the simulated clock is `clock`). */
    private readonly wallClock: Clock,
  ) {}

  private deadline = 0;

  /** Whether the step or time bound is reached: the run is answered as it stands then. */
  private spent(): boolean {
    return this.steps >= MAX_STEPS || this.wallClock.now() >= this.deadline;
  }

  /** Runs the root run (already started) until it is over, stuck, or the step bound is reached. */
  async run(rootId: string, rootBook: MockBook): Promise<void> {
    this.books.set(rootId, rootBook);
    this.deadline = this.wallClock.now() + MAX_RUN_MILLIS;
    while (!this.spent()) {
      this.steps++;
      this.decisions.releaseDue(this.clock.now());
      await this.drainDecides();
      const root = await this.engine.executions.getWorkflow(rootId);
      if (!root || isTerminalWorkflow(root.status)) return;
      const open = await this.openTasks();
      this.dispatchMocks(open);
      if (await this.advanceDue()) continue;
      const next = this.nextEvent(open);
      if (next === undefined) return;
      this.clock.set(Math.max(next, this.clock.now()));
    }
  }

  private async drainDecides(): Promise<void> {
    for (let id = this.decisions.next(); id !== undefined; id = this.decisions.next()) {
      if (this.spent()) return;
      this.steps++;
      await this.engine.executor.decide(id);
    }
  }

  /** The open tasks of every open run, each with the mock book of its run. */
  private async openTasks(): Promise<OpenTask[]> {
    const out: OpenTask[] = [];
    for (const workflowId of this.decisions.runs) {
      const run = await this.engine.executions.getWorkflow(workflowId);
      if (!run || isTerminalWorkflow(run.status)) continue;
      const book = await this.bookOf(run);
      // The record's working set holds every task still being acted on (as the executor reads
      // it): reading only those rows keeps a turn's cost independent of the run's history.
      const ids = run.tasks.filter((t) => !t.executed).map((t) => t.taskId);
      for (const task of await this.engine.executions.getTasks(workflowId, ids)) {
        if (!isTerminalTask(task.status)) out.push({ task, book });
      }
    }
    return out;
  }

  /** A child run's book is its parent's book for the SUB_WORKFLOW task's reference name. */
  private async bookOf(run: WorkflowRecord): Promise<MockBook> {
    const known = this.books.get(run.workflowId);
    if (known) return known;
    let book = emptyBook();
    if (run.parentWorkflowId && run.parentWorkflowTaskId) {
      const parent = await this.engine.executions.getWorkflow(run.parentWorkflowId);
      const task = await this.engine.executions.getTask(run.parentWorkflowId, run.parentWorkflowTaskId);
      if (parent && task) book = (await this.bookOf(parent)).child(task.referenceTaskName);
    }
    this.books.set(run.workflowId, book);
    return book;
  }

  /** Gives each ready task with a mock left to a simulated worker (Conductor: non-operator tasks). */
  private dispatchMocks(open: OpenTask[]): void {
    const now = this.clock.now();
    for (const { task, book } of open) {
      if (this.inFlight.has(task.taskId) || readyAt(task) > now) continue;
      const mock = book.take(task.referenceTaskName);
      if (!mock) continue;
      const polled = task.status === 'SCHEDULED';
      this.inFlight.set(task.taskId, {
        workflowId: task.workflowInstanceId,
        taskId: task.taskId,
        mock,
        phase: 'waiting',
        at: now + mock.queueWaitTime,
        polled,
      });
    }
  }

  /** Polls and answers whatever is due now, in time order; true when anything happened. */
  private async advanceDue(): Promise<boolean> {
    const due = [...this.inFlight.values()]
      .filter((f) => f.at <= this.clock.now())
      .sort((a, b) => a.at - b.at);
    for (const flight of due) {
      if (flight.phase === 'waiting') await this.poll(flight);
      else await this.answer(flight);
    }
    return due.length > 0;
  }

  /** What a worker's poll does to the row (TaskService.claim), for this very task. */
  private async poll(flight: InFlight): Promise<void> {
    flight.phase = 'running';
    flight.at = this.clock.now() + flight.mock.executionTime;
    if (!flight.polled) return;
    const { executions, queue } = this.engine;
    const task = await executions.getTask(flight.workflowId, flight.taskId);
    if (task?.status !== 'SCHEDULED') {
      // Canceled or timed out while it waited in the queue: no worker ever gets it.
      this.inFlight.delete(flight.taskId);
      return;
    }
    const now = this.clock.now();
    await executions.updateTask(
      {
        ...task,
        status: 'IN_PROGRESS',
        startTime: task.startTime || now,
        updateTime: now,
        pollCount: task.pollCount + 1,
        workerId: TEST_WORKER,
        callbackAfterSeconds: 0,
        // As a real claim (TaskService): the entry goes with it, and the row no longer names one.
        visibleAt: undefined,
        rev: task.rev + 1,
      },
      task.rev,
    );
    await queue.remove(queueEntryOf(task));
  }

  /** The worker's answer: the mock, through the real update path (an ended task ignores it). */
  private async answer(flight: InFlight): Promise<void> {
    this.inFlight.delete(flight.taskId);
    await this.engine.tasks.update({
      workflowInstanceId: flight.workflowId,
      taskId: flight.taskId,
      status: flight.mock.status,
      outputData: flight.mock.output,
      workerId: TEST_WORKER,
    });
  }

  /**
   * When the next thing happens that time alone brings about, or undefined when nothing will: a
   * simulated poll or answer, a mocked task becoming visible, a WAIT deadline. A run wake-up
   * (a timeout) is taken on the way only when it comes first.
   */
  private nextEvent(open: OpenTask[]): number | undefined {
    const times: number[] = [...this.inFlight.values()].map((f) => f.at);
    for (const { task, book } of open) {
      if (task.waitTimeout > 0) times.push(task.waitTimeout);
      if (!this.inFlight.has(task.taskId) && book.has(task.referenceTaskName)) times.push(readyAt(task));
    }
    const next = Math.min(...times);
    if (!Number.isFinite(next)) return undefined;
    const wake = this.decisions.nextWakeup();
    return wake !== undefined && wake < next ? wake : next;
  }
}

/**
 * When a simulated worker can take the task: a worker task once its queue entry is visible (a
 * start or retry delay, a worker's callbackAfterSeconds), a signal target (WAIT, HUMAN) at once;
 * never for system tasks, which the decider itself carries out.
 */
function readyAt(task: TaskRecord): number {
  const spec = specOf(task.workflowTask.type);
  if (spec.signalTarget) return task.status === 'IN_PROGRESS' ? 0 : Number.POSITIVE_INFINITY;
  if (spec.kind !== 'worker' || task.status !== 'SCHEDULED') return Number.POSITIVE_INFINITY;
  return Math.max(task.scheduledTime, task.updateTime) + task.callbackAfterSeconds * 1000;
}
