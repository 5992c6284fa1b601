/**
 * The worker-facing task service behind /api/tasks (docs/conductor-compat.md §1.1, §4.4): poll
 * (claiming a task with a conditional write on its row), updates, logs, queue introspection.
 * Updates to a task or run that is already over are accepted and ignored, as Conductor does.
 */
import { needsRunRows, outputViews } from '../engine/output-views.ts';
import { pushRequeued, queueEntryOf, queueName, superseded } from '../engine/queues.ts';
import type { TaskTypeRegistry } from '../engine/registry.ts';
import type { SchemaEnforcer } from '../engine/schema-enforcer.ts';
import type { Clock } from '../model/clock.ts';
import { baseRef } from '../model/definition-graph.ts';
import { NotFoundError, quote, ValidationError, VersionConflictError } from '../model/errors.ts';
import { isTerminalTask, type TaskRecord, type TaskStatus } from '../model/execution.ts';
import type { Notifier } from '../model/notifier.ts';
import { retryOnConflict } from '../model/retry-on-conflict.ts';
import { within } from '../model/within.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type {
  PollData,
  PollDataStore,
  PollLimitStore,
  QueueEntry,
  RunQueries,
  RunStore,
  TaskExecLog,
  TaskLogs,
  TaskQueue,
  TaskRows,
} from '../store/ports.ts';
import { rowsOfRun } from '../store/run-rows.ts';
import { PollLimits } from './poll-limits.ts';
import type { ResultStatus, TaskResult } from './task-result.ts';

export interface TaskServiceDeps {
  executions: RunStore & TaskRows & TaskLogs & Pick<RunQueries, 'tasksOfTypes'>;
  queue: TaskQueue;
  pollData: PollDataStore;
  /** Poll-time limits held in the store (lib/tasks/poll-limits.ts). */
  limits: PollLimitStore;
  decisions: DecisionQueue;
  registry: TaskTypeRegistry;
  clock: Clock;
  /** Queue notifications under the queue's name (lib/tasks/publishing-queue.ts): wakes long polls. */
  queueWatcher: Notifier;
  /** Refuses a COMPLETED output that breaks its enforced schema (lib/schemas); absent: no checks. */
  schemas?: SchemaEnforcer;
}

export interface PollOptions {
  workerId?: string;
  domain?: string;
  count: number;
  /** Long-poll: how long to wait for a task when none is ready. */
  timeoutMs: number;
}

const MAX_UPDATE_ATTEMPTS = 5;
/** How soon a poll looks again at tasks a poll-time limit held back. */
const LIMIT_RECHECK_MS = 25;
/** At most this many log lines are kept per update call (Conductor keeps 10). */
const MAX_LOGS_PER_CALL = 10;

export class TaskService {
  private readonly limits: PollLimits;
  private readonly lastPollWrite = new Map<string, number>();
  /**
   * Tasks a poll of this process is claiming right now. Concurrent polls of one queue see the same
   * entries first; each skips what another is already claiming instead of losing the conditional
   * write to it (a conflict, and an exception, for nothing). Only a shortcut: the conditional write
   * still decides every race, between processes too.
   */
  private readonly claiming = new Set<string>();

  constructor(private readonly deps: TaskServiceDeps) {
    this.limits = new PollLimits(deps.clock, deps.limits, (workflowId, taskId) =>
      deps.executions.getTask(workflowId, taskId),
    );
  }

  async poll(taskType: string, options: PollOptions): Promise<TaskRecord[]> {
    const { clock, queueWatcher } = this.deps;
    const name = queueName(taskType, options.domain);
    const now = clock.now();
    await this.recordPoll(name, options, now);
    const deadline = now + options.timeoutMs;
    // The real-time bound holds too, so a clock that does not move (tests) cannot hold a poll forever.
    const realDeadline = performance.now() + options.timeoutMs;
    // Watch before the first look: a push between the look and the wait still wakes the poll.
    const watch = queueWatcher.watch([name]);
    try {
      for (;;) {
        const { claimed, held } = await this.claim(name, options);
        const left = Math.min(deadline - clock.now(), realDeadline - performance.now());
        if (claimed.length > 0 || left <= 0) return claimed;
        // A task held back by a limit frees up with time or with another task's end: look again soon.
        const wait = held ? Math.min(left, LIMIT_RECHECK_MS) : left;
        if ((await watch.next(wait)) === 'timeout' && wait === left) return [];
      }
    } finally {
      watch.close();
    }
  }

  /** Poll data is for monitoring: written at most once a second per queue and worker. */
  private async recordPoll(name: string, options: PollOptions, now: number): Promise<void> {
    const key = `${name}\u0000${options.workerId ?? ''}`;
    const last = this.lastPollWrite.get(key);
    if (last !== undefined && now - last < 1000) return;
    this.lastPollWrite.set(key, now);
    await this.deps.pollData.record({
      queueName: name,
      domain: options.domain,
      workerId: options.workerId,
      lastPollTime: now,
    });
  }

  /**
   * Claims up to `count` visible tasks; `held`: some were left queued by a poll-time limit. A look
   * whose every entry turned out stale (dropped) is followed by another at once: the answer may
   * have been moments old (an eventually consistent read, or peek hints: hinted-queue.ts).
   */
  private async claim(name: string, options: PollOptions): Promise<{ claimed: TaskRecord[]; held: boolean }> {
    const { queue, clock } = this.deps;
    const claimed: TaskRecord[] = [];
    let held = false;
    for (let look = 0; look < 2; look++) {
      let dropped = 0;
      const entries = await queue.peek(name, Math.max(options.count * 2, options.count + 4), clock.now());
      for (const entry of entries) {
        if (claimed.length >= options.count) break;
        if (this.claiming.has(entry.taskId)) continue;
        this.claiming.add(entry.taskId);
        try {
          const next = await this.claimOne(entry, options);
          if (next === 'held') held = true;
          else if (next) claimed.push(next);
          else dropped++;
        } finally {
          this.claiming.delete(entry.taskId);
        }
      }
      if (claimed.length > 0 || held || dropped === 0) break;
    }
    return { claimed, held };
  }

  /** Claims one queued task: the task claimed, 'held' by a poll-time limit, or undefined (stale, or lost). */
  private async claimOne(entry: QueueEntry, options: PollOptions): Promise<TaskRecord | 'held' | undefined> {
    const { executions, queue, clock } = this.deps;
    // A stale read is fine for the claim: the write below is conditional on the revision read, so
    // a row that moved on makes it fail. Not for dropping the entry: a row created moments ago (the
    // decide writes it before it pushes the entry) or claimable again may read as missing or
    // over, so that is read again fresh first (lib/store/ports.ts ReadOptions).
    let task = await executions.getTask(entry.workflowId, entry.taskId, { fresh: false });
    if (!claimable(task, entry)) task = await executions.getTask(entry.workflowId, entry.taskId);
    if (!claimable(task, entry)) {
      // A stale entry (the task was claimed, canceled or removed, or queued again with a later
      // visibility, which this entry must not hand out early): drop it.
      await queue.remove(entry);
      return undefined;
    }
    if (!(await this.limits.admit(task))) return 'held';
    const now = clock.now();
    const next: TaskRecord = {
      ...task,
      status: 'IN_PROGRESS',
      startTime: task.startTime || now,
      updateTime: now,
      pollCount: task.pollCount + 1,
      workerId: options.workerId,
      callbackAfterSeconds: 0,
      // The entry goes with the claim: the row no longer names one (and its writes stay smaller).
      visibleAt: undefined,
      rev: task.rev + 1,
    };
    try {
      // The conditional write is the claim: of two pollers racing for a task, one wins.
      await executions.updateTask(next, task.rev);
    } catch (error) {
      // The slot stays: it is this task's, and the task is the winner's now (or over, which the
      // limit's repair finds).
      if (error instanceof VersionConflictError) return undefined;
      throw error;
    }
    await queue.remove(entry);
    return next;
  }

  /**
   * Waits, at most `withinMs`, until this process has no decide of the run running or waiting:
   * update-v2 then also finds the task its own update made the decider schedule (a loop's next
   * iteration, the next task of a chain of one type). Where decides run elsewhere (SQS) it returns
   * at once.
   */
  async decided(workflowId: string, withinMs: number): Promise<void> {
    await within(this.deps.decisions.settled(workflowId), withinMs);
  }

  /** POST /api/tasks. Returns the task id. */
  async update(result: TaskResult): Promise<TaskRecord | undefined> {
    const { executions } = this.deps;
    // The row write is conditional on the revision read: a concurrent change means read again.
    return retryOnConflict(async (n) => {
      const task = await this.rowToUpdate(result, n);
      if (!task) {
        const run = await executions.getWorkflow(result.workflowInstanceId);
        if (!run)
          throw new NotFoundError(`No such workflow found by id: ${quote(result.workflowInstanceId)}`);
        throw new NotFoundError(`Task not found for taskId: ${quote(result.taskId)}`);
      }
      // A run that ends cancels its open tasks before its status changes (the decider and the
      // terminate operation both do), so a task row that is still open belongs to a running run:
      // the row alone tells whether this update comes too late (§4.4 "Already finished").
      if (isTerminalTask(task.status)) {
        // Already over: accepted and ignored. Still nudge the decider: the run may be waiting on it.
        await this.appendResultLogs(task, result);
        // An entry it still names (it ended while queued, and the removal was lost): drop it.
        if (task.visibleAt !== undefined) await this.deps.queue.remove(queueEntryOf(task));
        await this.deps.decisions.requestForTasks(task.workflowInstanceId, [task.taskId]);
        return undefined;
      }
      await this.checkOutput(task, result);
      const next = this.applyResult(task, result);
      await executions.updateTask(next, task.rev);
      // Logs only once the update is stored: a refused or retried update writes none, or none twice.
      await this.appendResultLogs(task, result);
      await this.afterUpdate(task, next, result.extendLease === true);
      return next;
    }, MAX_UPDATE_ATTEMPTS);
  }

  /**
   * The row an update applies to. A worker reports on a task it polled, so the first attempt reads
   * the row eventually consistent (half the read units) and keeps what it reads only when it is
   * IN_PROGRESS: the update's write is conditional on that revision, so a stale one fails it and
   * the next attempt reads fresh. Anything else (missing, SCHEDULED: the claim may not show yet,
   * over: the update would be ignored) is read again fresh before it is acted on.
   */
  private async rowToUpdate(result: TaskResult, attempt: number): Promise<TaskRecord | undefined> {
    const { executions } = this.deps;
    if (attempt === 1) {
      const row = await executions.getTask(result.workflowInstanceId, result.taskId, { fresh: false });
      if (row?.status === 'IN_PROGRESS') return row;
    }
    return executions.getTask(result.workflowInstanceId, result.taskId);
  }

  /** A worker's final output against the task's enforced outputSchema: 400, the task unchanged. */
  private async checkOutput(task: TaskRecord, result: TaskResult): Promise<void> {
    if (!this.deps.schemas || result.status !== 'COMPLETED' || result.externalOutputPayloadStoragePath)
      return;
    const output = result.outputData ?? task.outputData;
    const violation = await this.deps.schemas.taskOutput(task.workflowTask.taskDefinition, output);
    if (violation) throw new ValidationError(violation.message, violation.violations);
  }

  private async appendResultLogs(task: TaskRecord, result: TaskResult): Promise<void> {
    if (result.logs?.length)
      await this.appendLogs(
        task.taskId,
        result.logs.map((l) => l.log),
      );
  }

  private applyResult(task: TaskRecord, result: TaskResult): TaskRecord {
    const now = this.deps.clock.now();
    if (result.extendLease) return { ...task, updateTime: now, rev: task.rev + 1 };
    const worker = this.deps.registry.get(task.workflowTask.type).kind === 'worker';
    const status: TaskStatus = result.status === 'IN_PROGRESS' && worker ? 'SCHEDULED' : result.status;
    const callbackAfterSeconds = result.callbackAfterSeconds ?? 0;
    return {
      ...task,
      status,
      // Handed back to the queue (afterUpdate pushes it): visible once the callback delay passes.
      visibleAt: status === 'SCHEDULED' ? now + callbackAfterSeconds * 1000 : task.visibleAt,
      outputData: result.outputData ?? task.outputData,
      // A worker's large output, uploaded through a WRITE location: the store reads it from there
      // (lib/payloads/externalizing-store.ts).
      externalOutputPayloadStoragePath:
        result.externalOutputPayloadStoragePath ?? task.externalOutputPayloadStoragePath,
      reasonForIncompletion: result.reasonForIncompletion ?? task.reasonForIncompletion,
      workerId: result.workerId ?? task.workerId,
      callbackAfterSeconds,
      subWorkflowId: result.subWorkflowId ?? task.subWorkflowId,
      startTime: task.startTime || now,
      endTime: isTerminalTask(status) ? now : 0,
      updateTime: now,
      rev: task.rev + 1,
    };
  }

  private async afterUpdate(before: TaskRecord, after: TaskRecord, lease: boolean): Promise<void> {
    const { queue, decisions } = this.deps;
    if (before.status === 'IN_PROGRESS' && after.status !== 'IN_PROGRESS') await this.limits.finished(before);
    if (lease) return;
    if (after.status === 'SCHEDULED') {
      // A worker's IN_PROGRESS hands the task back to the queue until callbackAfterSeconds pass.
      await pushRequeued(queue, [{ before, after }]);
    } else if (isTerminalTask(after.status) && before.status === 'SCHEDULED') {
      // Finished without being polled (e.g. completed through the API): its queue entry goes too.
      await queue.remove(queueEntryOf(before));
    }
    await decisions.requestForTasks(after.workflowInstanceId, [after.taskId]);
  }

  /** POST /api/tasks/{workflowId}/{taskRefName}/{status}: output merged into the task's output. */
  async updateByRef(
    workflowId: string,
    ref: string,
    status: ResultStatus,
    output: Record<string, unknown>,
    workerId?: string,
  ): Promise<TaskRecord | undefined> {
    const task = await this.openTaskByRef(workflowId, ref);
    if (!task) return undefined;
    return this.update({
      workflowInstanceId: workflowId,
      taskId: task.taskId,
      status,
      outputData: { ...task.outputData, ...output },
      workerId,
    });
  }

  /**
   * The open task of a reference name in a run (a loop's body task by its base name too); 404 for
   * an unknown run, undefined when none of that reference is open.
   */
  openTaskByRef(workflowId: string, ref: string): Promise<TaskRecord | undefined> {
    return this.findOpenTask(
      workflowId,
      (t) => t.referenceTaskName === ref || baseRef(t.referenceTaskName) === ref,
    );
  }

  /** A task row of a run, read consistently by its ids; undefined when the run has no such task. */
  taskOfRun(workflowId: string, taskId: string): Promise<TaskRecord | undefined> {
    return this.deps.executions.getTask(workflowId, taskId);
  }

  /** POST /api/tasks/{workflowId}/{status}/signal: the first open WAIT/YIELD/HUMAN task, in sub-workflows too. */
  async signal(
    workflowId: string,
    status: ResultStatus,
    output: Record<string, unknown>,
  ): Promise<TaskRecord | undefined> {
    const { registry } = this.deps;
    const task = await this.findOpenTask(
      workflowId,
      (t) => registry.get(t.workflowTask.type).signalTarget === true,
    );
    if (task) {
      return this.update({
        workflowInstanceId: task.workflowInstanceId,
        taskId: task.taskId,
        status,
        outputData: output,
      });
    }
    const run = await this.deps.executions.getWorkflow(workflowId);
    for (const sub of run?.tasks ?? []) {
      // A type that follows a child run (SUB_WORKFLOW) passes the signal on into the child.
      const followsChild = registry.get(sub.workflowTask.type).childWorkflow === true;
      if (followsChild && !isTerminalTask(sub.status) && sub.subWorkflowId) {
        const found = await this.signal(sub.subWorkflowId, status, output);
        if (found) return found;
      }
    }
    return undefined;
  }

  private async findOpenTask(
    workflowId: string,
    match: (t: TaskRecord) => boolean,
  ): Promise<TaskRecord | undefined> {
    const run = await this.deps.executions.getWorkflow(workflowId);
    if (!run) throw new NotFoundError(`No such workflow found by id: ${quote(workflowId)}`);
    const candidates = run.tasks.filter((t) => match(t) && !t.retried);
    const rows = await this.deps.executions.getTasks(
      workflowId,
      candidates.map((t) => t.taskId),
    );
    return rows.sort((a, b) => a.seq - b.seq).find((t) => !isTerminalTask(t.status));
  }

  async getTask(taskId: string): Promise<TaskRecord> {
    const task = await this.deps.executions.findTask(taskId);
    if (!task) throw new NotFoundError(`Task not found for taskId: ${quote(taskId)}`);
    if (!needsRunRows(this.deps.registry, task)) return task;
    // The type's output view needs the run's other rows (a DO_WHILE rebuilds its iterations).
    const run = await this.deps.executions.getWorkflow(task.workflowInstanceId);
    if (!run) return task;
    const rows = await rowsOfRun(this.deps.executions, run);
    return (
      outputViews(this.deps.registry, run.workflowDefinition, rows).find((t) => t.taskId === taskId) ?? task
    );
  }

  async appendLogs(taskId: string, lines: string[]): Promise<void> {
    const now = this.deps.clock.now();
    const logs: TaskExecLog[] = lines
      .slice(0, MAX_LOGS_PER_CALL)
      .map((log) => ({ log, taskId, createdTime: now }));
    if (logs.length > 0) await this.deps.executions.appendLogs(logs);
  }

  logs(taskId: string): Promise<TaskExecLog[]> {
    return this.deps.executions.logs(taskId);
  }

  async queueSizes(taskTypes: string[]): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const type of taskTypes) out[type] = await this.deps.queue.size(type);
    return out;
  }

  queueSize(taskType: string, domain?: string): Promise<number> {
    return this.deps.queue.size(queueName(taskType, domain));
  }

  allQueues(): Promise<Record<string, number>> {
    return this.deps.queue.sizes();
  }

  async pollData(taskType?: string): Promise<PollData[]> {
    if (taskType === undefined) return this.deps.pollData.list();
    // Polls are recorded per queue, `domain:taskType` for a domain; Conductor's per-type view
    // (GET /tasks/queue/polldata) covers every domain of the type, so read them all and pick its own.
    const all = await this.deps.pollData.list();
    return all.filter((p) => p.queueName === queueName(taskType, p.domain));
  }

  /**
   * POST /api/tasks/queue/requeue/{taskType}: re-pushes every non-terminal worker task of the type
   * into its queue, as Conductor does (docs/conductor-compat.md §1.1), found through the task-type
   * index rather than the queue, so a task whose entry was lost is queued again. A SCHEDULED task
   * gets exactly the entry its row names (what remains of its callback delay), so requeueing twice
   * writes one entry; an IN_PROGRESS one (its worker may be gone) goes back to SCHEDULED, visible
   * now, with a conditional write, so a poll hands it out again. Returns how many were re-pushed.
   */
  async requeue(taskType: string): Promise<number> {
    const { executions, registry } = this.deps;
    let count = 0;
    for (const row of await executions.tasksOfTypes([taskType])) {
      if (isTerminalTask(row.status) || registry.get(row.workflowTask.type).kind !== 'worker') continue;
      const task = await this.toRequeue(row);
      if (!task) continue;
      await pushRequeued(this.deps.queue, [{ before: row, after: task }]);
      count++;
    }
    return count;
  }

  /**
   * The row as requeued: as it is when SCHEDULED and naming its entry's visibility; otherwise
   * changed with a conditional write (undefined when it changed meanwhile: its worker answered, and
   * that update decides what happens next).
   */
  private async toRequeue(row: TaskRecord): Promise<TaskRecord | undefined> {
    if (row.status === 'SCHEDULED' && row.visibleAt !== undefined) return row;
    const now = this.deps.clock.now();
    const task: TaskRecord =
      row.status === 'IN_PROGRESS'
        ? {
            ...row,
            status: 'SCHEDULED',
            updateTime: now,
            callbackAfterSeconds: 0,
            visibleAt: now,
            rev: row.rev + 1,
          }
        : // Queued before rows named their entry's visibility: what remains of its callback delay.
          {
            ...row,
            visibleAt: Math.max(now, row.updateTime + row.callbackAfterSeconds * 1000),
            rev: row.rev + 1,
          };
    try {
      await this.deps.executions.updateTask(task, row.rev);
    } catch (error) {
      if (error instanceof VersionConflictError) return undefined;
      throw error;
    }
    if (row.status === 'IN_PROGRESS') await this.limits.finished(row);
    return task;
  }
}

/** A row a poll may claim through this entry: scheduled, and queued by this very entry. */
const claimable = (row: TaskRecord | undefined, entry: QueueEntry): row is TaskRecord =>
  row?.status === 'SCHEDULED' && !superseded(row, entry);
