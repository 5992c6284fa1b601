/**
 * The executor: reads a run, asks the pure decider what to do, and applies the decision through the
 * ports in an order that survives a crash at any point (lib/engine/ARCHITECTURE.md):
 *   1. create new task rows (deterministic ids; an existing row is adopted, never overwritten);
 *   2. write changed task rows (each conditional on its revision);
 *   3. queue new worker tasks, hand async ones to their durable queue (HTTP) and create child runs
 *      (idempotent, or at least once where the consumer says so);
 *   4. commit the run record (conditional on its revision) - the decision takes effect here;
 *   5. after the commit: wake-ups, children's decides, async task starts, and what follows a run's
 *      end (RunEnd: children of canceled tasks ended, the parent told, the failure workflow).
 * A decide that changed nothing (a worker's progress report) writes nothing: steps 1-4 are skipped.
 * A decide that dies anywhere and runs again computes the same ids and converges.
 */
import type { Logger } from '../log/logger.ts';
import { type Metrics, noMetrics } from '../log/metrics.ts';
import type { Clock } from '../model/clock.ts';
import { errorMessage } from '../model/errors.ts';
import {
  endPending,
  isTerminalTask,
  isTerminalWorkflow,
  type TaskRecord,
  type WorkflowRecord,
} from '../model/execution.ts';
import { retryOnConflict } from '../model/retry-on-conflict.ts';
import { type DecisionQueue, EARLY_WAKE_MS } from '../queue/ports.ts';
import type { ExecutionStore, PollDataStore, TaskQueue } from '../store/ports.ts';
import { encodeRun } from '../store/run-codec.ts';
import { type DecideObservation, observeDecide, observing, reportDecide } from './decide-events.ts';
import { readTasks } from './decide-read.ts';
import { decide } from './decider.ts';
import { activeDomain, domainCandidates } from './domains.ts';
import { queueEntryOf } from './queues.ts';
import type { TaskTypeRegistry } from './registry.ts';
import type { DecideResult } from './run-context.ts';
import type { RunEnd } from './run-end.ts';
import type { SchemaEnforcer } from './schema-enforcer.ts';
import { reportAsyncResult } from './system-tasks.ts';
import type { AsyncTaskResult, ChildStart } from './task-type.ts';

export interface ExecutorDeps {
  executions: ExecutionStore;
  queue: TaskQueue;
  pollData: PollDataStore;
  decisions: DecisionQueue;
  registry: TaskTypeRegistry;
  clock: Clock;
  logger: Logger;
  /** TasksCompleted / TasksFailed / DecideLatency (lib/engine/decide-events.ts); none when absent. */
  metrics?: Metrics;
  /** Creates a child run (SUB_WORKFLOW); must be idempotent on the child's id. */
  startChild(child: ChildStart, parent: WorkflowRecord): Promise<void>;
  /** What follows a run's end (its children ended, its parent told...), shared with the operations. */
  runEnd: RunEnd;
  random?: () => number;
  schemas?: SchemaEnforcer;
}

/**
 * Whether no task a decide request names has ended since the decider last looked (each is open, or
 * ended and taken in already), in the run's view: then the decide is likely to change nothing (a
 * worker's progress report, a notice told again), and whether it did is worth checking.
 */
function noNews(run: WorkflowRecord, named: readonly string[]): boolean {
  const ids = new Set(named);
  return !run.tasks.some((t) => ids.has(t.taskId) && isTerminalTask(t.status) && !t.executed);
}

/** The decide asks for no write, queue entry, child or termination. */
function decidedNothing(result: DecideResult): boolean {
  return (
    result.changedTasks.length === 0 &&
    result.toQueue.length === 0 &&
    result.children.length === 0 &&
    result.terminateChildren.length === 0 &&
    result.deleteTaskIds.length === 0 &&
    !result.ended
  );
}

/** Whether the run's wake-up is ahead, by no more than a delayed message may come early. */
function almostDue(run: WorkflowRecord, now: number): boolean {
  return run.wakeAt > now && run.wakeAt - now <= EARLY_WAKE_MS;
}

/** The revisions a decide started from: its writes are conditional on them. */
interface Revisions {
  rev: number;
  tasks: Map<string, number>;
  /** The stored wake-up, and when the decide that left it armed it. */
  wakeAt: number;
  wakeArmedAt: number | undefined;
}

export class Executor {
  /** Whether decides are told as events and metrics: decided once, so a decide with neither pays nothing. */
  private readonly observed: boolean;
  private readonly sinks: { logger: Logger; metrics: Metrics };

  constructor(private readonly deps: ExecutorDeps) {
    this.sinks = { logger: deps.logger, metrics: deps.metrics ?? noMetrics };
    this.observed = observing(this.sinks);
  }

  /**
   * Decides a run until its decision commits (re-reading after a concurrent change). `changed`,
   * when given, names the only task rows that changed since the run's last decide (the decide
   * requests of worker updates): the first attempt reads just those of its open tasks, unless the
   * run is due (its stored wake-up has come, at the latest FULL_READ_AFTER_MS after its decides
   * began to read only named rows: partialReadDeadline), when it reads every row. What else changes a row
   * unannounced (a poll's claim, a requeue, a lease extension) leaves the run's view of it older:
   * - every write of a task is conditional on the revision the view holds, so a write over a row
   *   that moved fails, and the attempt after it reads every row;
   * - deadlines from an older view are no earlier than the true ones, so such a decide keeps the
   *   stored wake-up (it only ever moves it earlier: lifecycle.ts computeWakeAt), and the decide that
   *   wake-up brings reads every row;
   * - async starts again on every decide (startOnEveryDecide) are made only for rows it read.
   */
  async decide(workflowId: string, changed?: readonly string[]): Promise<void> {
    await retryOnConflict((n) => this.decideOnce(workflowId, n === 1 ? changed : undefined));
  }

  private async decideOnce(workflowId: string, changed: readonly string[] | undefined): Promise<void> {
    const { executions } = this.deps;
    const record = await executions.getWorkflow(workflowId);
    if (!record) return;
    if (isTerminalWorkflow(record.status) && record.tasks.every((t) => isTerminalTask(t.status))) {
      await this.deps.decisions.wakeAt(workflowId, 0);
      // The decide that ended the run may have died after its commit, before what follows an end.
      await this.deps.runEnd.follow(record);
      // A run ended from outside keeps a wake-up until what follows its end is done (a terminate
      // leaves one due: terminateChange): cleared now, or the sweeper would decide it every minute.
      if (endPending(record)) {
        await executions.commitWorkflow({ ...record, wakeAt: 0, rev: record.rev + 1 }, record.rev);
      }
      return;
    }
    const now = this.deps.clock.now();
    // A run read in part has its wake-up by the time it must be read whole (partialReadDeadline).
    const due = record.wakeAt > 0 && record.wakeAt <= now;
    const read = await readTasks(this.deps, record, due ? undefined : changed);
    const probe = changed && !due && noNews(record, changed) ? encodeRun(record) : undefined;
    if (read === undefined) delete record.partialSince;
    else record.partialSince ??= now;
    const seen = this.observed ? observeDecide(record) : undefined;
    // What the commit is conditional on, taken before the decider works on the record in place.
    const before: Revisions = {
      rev: record.rev,
      tasks: new Map(record.tasks.map((t) => [t.taskId, t.rev])),
      wakeAt: record.wakeAt,
      // A plain decide of a run whose wake-up is all but due may be the one that wake-up brought,
      // a little early: the wake-up is armed again rather than left to the sweeper.
      wakeArmedAt: changed === undefined && almostDue(record, now) ? undefined : record.wakeArmedAt,
    };
    const result = await decide(
      record,
      {
        now,
        registry: this.deps.registry,
        random: this.deps.random,
        schemas: this.deps.schemas,
      },
      // The record was just read for this decide and nothing else holds it: no defensive copy.
      { owned: true },
    );
    if (probe !== undefined && decidedNothing(result) && encodeRun(result.workflow) === probe) {
      // A worker's progress report or a callback's requeue, say: nothing to commit. Committing
      // anyway would rewrite the whole record (a big fork's, 50 KB and more) per report.
      await this.afterNoChange(result.workflow, before, read);
      return;
    }
    await this.apply(before, result, now, seen, read);
  }

  private async apply(
    before: Revisions,
    result: DecideResult,
    now: number,
    seen: DecideObservation | undefined,
    read: ReadonlySet<string> | undefined,
  ): Promise<void> {
    const { executions, queue } = this.deps;
    const wf = result.workflow;

    // 0. A worker task offered several domains goes to the first one with a live worker. Its row
    // names the visibility of the entry step 3 pushes (the entry's key on DynamoDB).
    for (const task of result.toQueue) {
      const candidates = domainCandidates(wf.taskToDomain, task.workflowTask.name);
      if (candidates.length > 1)
        task.domain = await activeDomain(candidates, task.taskType, this.deps.pollData, now);
      task.visibleAt = task.scheduledTime + task.callbackAfterSeconds * 1000;
    }

    // 1. New rows. A row that already exists (an earlier, interrupted decide) is adopted as is.
    const created = result.changedTasks.filter((t) => result.createdTaskIds.has(t.taskId));
    // An adopted row a worker already moved on (polled and finished before this re-run) is news
    // this decide did not act on; another decide must, as nothing else will ask for one.
    let adoptedMoved = false;
    if (created.length > 0) {
      const stored = new Map((await executions.createTasks(created)).map((t) => [t.taskId, t]));
      adoptedMoved = created.some((t) => {
        const row = stored.get(t.taskId);
        return row !== undefined && row.status !== t.status;
      });
      wf.tasks = wf.tasks.map((t) => {
        const row = stored.get(t.taskId);
        return row ? { ...row, executed: t.executed, retried: t.retried } : t;
      });
    }

    // 2. Changed rows, each conditional on the revision the decide started from.
    const updates = result.changedTasks.filter((t) => !result.createdTaskIds.has(t.taskId));
    for (const task of updates) {
      const expected = before.tasks.get(task.taskId) ?? task.rev;
      const next = { ...task, rev: expected + 1 };
      await executions.updateTask(next, expected);
      const live = wf.tasks.findIndex((t) => t.taskId === task.taskId);
      if (live >= 0) wf.tasks[live] = next;
    }

    // 3. Queue new worker tasks and create children before the commit, so a crash cannot lose them.
    const toQueue = result.toQueue.map((t) => wf.tasks.find((w) => w.taskId === t.taskId) ?? t);
    const queueable = toQueue.filter((t) => t.status === 'SCHEDULED');
    if (queueable.length > 0) {
      await queue.push(queueable.map(queueEntryOf));
    }
    for (const child of result.children) await this.deps.startChild(child, wf);
    await this.dispatch(created, wf.tasks);

    // 4. Arm the wake-up the commit stores, then commit. Armed first, a crash between the two
    // leaves at worst an early decide (harmless), never a stored wake-up that says it is armed
    // whose arming was lost. One the commit keeps was armed by the decide that stored it: a run's
    // every decide arming it again would send an SQS message per commit, each deciding the run
    // (ended, likely) when it comes.
    const kept = wf.wakeAt === before.wakeAt ? before.wakeArmedAt : undefined;
    await this.deps.decisions.wakeAt(wf.workflowId, wf.wakeAt, kept);
    const committed: WorkflowRecord = { ...wf, rev: before.rev + 1, updateTime: now, wakeArmedAt: now };
    await executions.commitWorkflow(committed, before.rev);
    if (seen) reportDecide(this.sinks, seen, committed, result.changedTasks, created);

    // 5. After the commit. Rows the decision dropped (DO_WHILE keepLastN) go first: nothing refers
    // to them any more; a crash before this leaves them in storage, as a run without keepLastN would.
    if (result.deleteTaskIds.length > 0) await executions.deleteTasks(wf.workflowId, result.deleteTaskIds);
    for (const child of result.children) await this.deps.decisions.request(child.workflowId);
    // Cut short with work left: decide again. A decide that changed no task has nothing to carry on
    // with, so a task type that keeps reporting a change it did not make cannot spin the run.
    const carryOn = result.unfinished && result.changedTasks.length > 0;
    if (carryOn || adoptedMoved) await this.deps.decisions.request(wf.workflowId);
    for (const { workflowId, reason } of result.terminateChildren) {
      await this.deps.runEnd.terminateChild(workflowId, reason);
    }
    if (isTerminalWorkflow(committed.status)) await this.deps.runEnd.follow(committed);
    else await this.startAsync(committed, created, this.reStartable(committed, created, read));
  }

  /**
   * Hands the async tasks this decide created to their type's durable queue (TaskType.dispatch),
   * as they stand after step 1: a row adopted from an interrupted decide may be over already.
   */
  private async dispatch(created: readonly TaskRecord[], tasks: readonly TaskRecord[]): Promise<void> {
    let current: Map<string, TaskRecord> | undefined;
    for (const made of created) {
      const dispatch = this.deps.registry.get(made.workflowTask.type).dispatch;
      if (!dispatch) continue;
      current ??= new Map(tasks.map((t) => [t.taskId, t]));
      const task = current.get(made.taskId) ?? made;
      if (!isTerminalTask(task.status)) await dispatch(task);
    }
  }

  /**
   * The tail of a decide that changed nothing and so commits nothing: the stored wake-up is
   * armed as kept, and async tasks that start again on every decide are started.
   */
  private async afterNoChange(
    run: WorkflowRecord,
    before: Revisions,
    read: ReadonlySet<string> | undefined,
  ): Promise<void> {
    await this.deps.decisions.wakeAt(run.workflowId, run.wakeAt, before.wakeArmedAt);
    await this.startAsync(run, [], this.reStartable(run, [], read));
  }

  /**
   * Hands the async tasks this decide created to their type's `start` (TaskType.start), once the
   * decide committed, and reports each answer back like a worker update. A decide that is re-run
   * after a crash adopts the open task and starts it again: `start` runs at least once.
   */
  private async startAsync(
    run: WorkflowRecord,
    created: TaskRecord[],
    again: TaskRecord[] = [],
  ): Promise<void> {
    for (const task of [...created, ...again]) {
      const start = this.deps.registry.get(task.workflowTask.type).start;
      if (!start || isTerminalTask(task.status)) continue;
      let result: AsyncTaskResult;
      try {
        result = await start({ task, run, now: this.deps.clock.now() });
      } catch (error) {
        result = { status: 'FAILED', reasonForIncompletion: errorMessage(error) };
      }
      // An answer with nothing new (still in progress: every async type creates its task
      // IN_PROGRESS, and HTTP answers so once it has handed the task to the system-task queue)
      // leaves the task and the run as they are: no row write, and no decide that would find
      // nothing to do. A re-run's in-progress answer says nothing new either, whatever it holds.
      if (result.status === 'IN_PROGRESS' && (again.includes(task) || saysNothingNew(result))) continue;
      await this.report(task, result);
      await this.deps.decisions.request(run.workflowId);
    }
  }

  /**
   * Open tasks, not created by this decide, whose type starts again on every decide
   * (TaskType.startOnEveryDecide), of the rows this decide read (`read`; undefined: every row): a
   * task its view shows open may have ended since (a start of an earlier decide reported it).
   */
  private reStartable(
    run: WorkflowRecord,
    created: TaskRecord[],
    read: ReadonlySet<string> | undefined,
  ): TaskRecord[] {
    const fresh = new Set(created.map((t) => t.taskId));
    return run.tasks.filter(
      (t) =>
        !fresh.has(t.taskId) &&
        (read === undefined || read.has(t.taskId)) &&
        !isTerminalTask(t.status) &&
        this.deps.registry.get(t.workflowTask.type).startOnEveryDecide === true,
    );
  }

  private report(task: TaskRecord, result: AsyncTaskResult): Promise<void> {
    return reportAsyncResult(this.deps.executions, this.deps.clock, task, result);
  }
}

/** An in-progress answer that carries nothing (no output, reason or callback): the task as it was created. */
const saysNothingNew = (result: AsyncTaskResult): boolean =>
  result.outputData === undefined &&
  result.reasonForIncompletion === undefined &&
  result.callbackAfterSeconds === undefined;
