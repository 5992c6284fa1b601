/**
 * Synchronous execution (POST /api/workflow/execute/{name}/{version}; docs/api.md "Workflow start
 * API", docs/conductor-compat.md §1.6, §2.13): start a run, then answer once it is over, a listed
 * task is over, or a task blocks it (WAIT without a deadline, HUMAN, YIELD), looking into its
 * sub-workflows too; or, when the wait runs out, answer the state so far with `signalTimeout`
 * while the run goes on.
 *
 * The run's first decide runs here, in the request, not through the decision queue: a run made of
 * system tasks (INLINE, SET_VARIABLE, SWITCH...) is over before the first look. Later waiting is
 * woken by the run's own commits (lib/workflows/progress.ts), never by a timer of its own.
 *
 * A `requestId` is an idempotency key (strategy RETURN_EXISTING): the same requestId answers the
 * same run, never a second start. An explicit StartWorkflowRequest.idempotencyKey takes precedence.
 */
import type { TaskTypeRegistry } from '../engine/registry.ts';
import type { Clock } from '../model/clock.ts';
import {
  isTerminalTask,
  isTerminalWorkflow,
  type TaskRecord,
  type WorkflowRecord,
} from '../model/execution.ts';
import type { IdGenerator } from '../model/ids.ts';
import { LATE, within } from '../model/within.ts';
import type { RunWatch, RunWatcher } from './progress.ts';
import type { WorkflowReader } from './service.ts';
import { type ReturnStrategy, type SignalBase, taskRun, workflowRun } from './signal-response.ts';
import type { StartRequest, WorkflowStarter } from './start.ts';

/** Conductor's default wait; 0 means the default too. */
export const DEFAULT_WAIT_SECONDS = 10;
/**
 * The longest wait: below API Gateway's 29-second integration timeout, so an answer (with
 * signalTimeout) always arrives before the gateway gives up. Longer asks are capped, not refused.
 */
export const MAX_WAIT_SECONDS = 25;
/** Sub-workflows are looked into this deep for a blocking or listed task. */
const MAX_DEPTH = 10;

export interface ExecuteOptions {
  requestId?: string;
  /** Task reference names: answer once any of them is over. */
  waitUntilTaskRefs: readonly string[];
  waitForSeconds?: number;
  returnStrategy: ReturnStrategy;
}

export interface SyncExecutionDeps {
  starter: WorkflowStarter;
  reader: WorkflowReader;
  registry: TaskTypeRegistry;
  watcher: RunWatcher;
  clock: Clock;
  ids: IdGenerator;
  /** Decides the run at once, in this process (Executor.decide). */
  decide(workflowId: string): Promise<void>;
  /** Asks the decision queue for a decide (the fallback when deciding here failed). */
  requestDecide(workflowId: string): Promise<void>;
}

/** One look at the run tree: the target and, when the wait is over, why. */
interface Look {
  target: WorkflowRecord;
  targetTasks: TaskRecord[];
  done: boolean;
  /** The listed or blocking task that ended the wait, with the run holding it. */
  blocking?: { task: TaskRecord; run: WorkflowRecord; runTasks: TaskRecord[] };
  /** Sub-workflows seen (watched from then on). */
  children: string[];
}

export class SyncExecution {
  constructor(private readonly deps: SyncExecutionDeps) {}

  async execute(request: StartRequest, options: ExecuteOptions): Promise<Record<string, unknown>> {
    const { clock, watcher } = this.deps;
    const seconds = Math.min(options.waitForSeconds || DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS);
    const deadline = clock.now() + seconds * 1000;
    const requestId = options.requestId || this.deps.ids.random();
    const { workflowId } = await this.deps.starter.startRun(request, {
      decide: (id) => this.decideHere(id, deadline),
      ...(options.requestId && !request.idempotencyKey
        ? { idempotency: { key: `requestId:${requestId}`, strategy: 'RETURN_EXISTING' as const } }
        : {}),
    });
    const watch = watcher.watch([workflowId]);
    try {
      return await this.waitAndAnswer(workflowId, options, requestId, deadline, watch);
    } finally {
      watch.close();
    }
  }

  /**
   * Waits on a run that is already going as execute waits on the one it started, and answers the
   * same way: once it is over, a listed task is over or a task blocks it, or when the wait runs
   * out (the state update of POST /workflow/{id}/state).
   */
  async waitFor(workflowId: string, options: ExecuteOptions): Promise<Record<string, unknown>> {
    const seconds = Math.min(options.waitForSeconds || DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS);
    const deadline = this.deps.clock.now() + seconds * 1000;
    const requestId = options.requestId || this.deps.ids.random();
    const watch = this.deps.watcher.watch([workflowId]);
    try {
      return await this.waitAndAnswer(workflowId, options, requestId, deadline, watch);
    } finally {
      watch.close();
    }
  }

  private async waitAndAnswer(
    workflowId: string,
    options: ExecuteOptions,
    requestId: string,
    deadline: number,
    watch: RunWatch,
  ): Promise<Record<string, unknown>> {
    const refs = new Set(options.waitUntilTaskRefs);
    for (;;) {
      const look = await this.look(workflowId, refs);
      for (const child of look.children) watch.add(child);
      const left = deadline - this.deps.clock.now();
      if (look.done) return answer(look, options.returnStrategy, requestId, false);
      if (left <= 0 || (await watch.next(left)) === 'timeout') {
        // The state as of now: one more look, as the last wake may have been a change.
        const last = await this.look(workflowId, refs);
        return answer(last, options.returnStrategy, requestId, !last.done);
      }
    }
  }

  /**
   * The first decide, here; if it fails the decision queue gets the run (it is stored due now
   * anyway). It is waited for until the deadline at most: a first decide that runs longer (long
   * scripts) goes on while the request answers, so the answer always comes before the function's
   * timeout (on AWS the sweeper decides the run if the function is frozen before it commits).
   */
  private async decideHere(workflowId: string, deadline: number): Promise<void> {
    const decided = this.deps.decide(workflowId).catch(() => this.deps.requestDecide(workflowId));
    if ((await within(decided, deadline - this.deps.clock.now())) === LATE) {
      // Still running: its outcome is the run's, seen by whoever looks next.
      decided.catch(() => undefined);
    }
  }

  private async look(workflowId: string, refs: ReadonlySet<string>): Promise<Look> {
    const target = await this.deps.reader.record(workflowId);
    const targetTasks = await this.deps.reader.tasksOf(target);
    const look: Look = { target, targetTasks, done: isTerminalWorkflow(target.status), children: [] };
    if (!look.done) look.blocking = await this.findStop(target, targetTasks, refs, look.children, 0);
    if (look.blocking) look.done = true;
    return look;
  }

  /** A listed task that is over, or a task that blocks the run, here or in a running sub-workflow. */
  private async findStop(
    run: WorkflowRecord,
    tasks: TaskRecord[],
    refs: ReadonlySet<string>,
    children: string[],
    depth: number,
  ): Promise<Look['blocking']> {
    const { registry, reader } = this.deps;
    const listed = tasks.find((t) => refs.has(t.referenceTaskName) && isTerminalTask(t.status));
    if (listed) return { task: listed, run, runTasks: tasks };
    const blocking = tasks.find(
      // A WAIT with a deadline ends by itself; Conductor waits it out (§1.6).
      (t) =>
        registry.get(t.workflowTask.type).signalTarget && !isTerminalTask(t.status) && !(t.waitTimeout > 0),
    );
    if (blocking) return { task: blocking, run, runTasks: tasks };
    if (depth >= MAX_DEPTH) return undefined;
    for (const t of tasks) {
      const followsChild = registry.get(t.workflowTask.type).childWorkflow === true;
      if (!followsChild || isTerminalTask(t.status) || !t.subWorkflowId) continue;
      children.push(t.subWorkflowId);
      const child = await this.deps.reader.record(t.subWorkflowId).catch(() => undefined);
      if (!child || isTerminalWorkflow(child.status)) continue;
      const found = await this.findStop(child, await reader.tasksOf(child), refs, children, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
}

/** The §2.13 shape for the strategy; BLOCKING_TASK* with no blocking task answer the WorkflowRun (Rec.). */
function answer(
  look: Look,
  strategy: ReturnStrategy,
  requestId: string,
  signalTimeout: boolean,
): Record<string, unknown> {
  const b: SignalBase = { responseType: strategy, target: look.target, requestId, signalTimeout };
  const blocking = look.blocking;
  if (strategy === 'BLOCKING_TASK' || strategy === 'BLOCKING_TASK_INPUT') {
    if (blocking) return taskRun(b, blocking.task, blocking.run);
    // Named for the shape it is, so the SDK's getWorkflow() reads it.
    return workflowRun({ ...b, responseType: 'TARGET_WORKFLOW' }, look.target, look.targetTasks);
  }
  if (strategy === 'BLOCKING_WORKFLOW' && blocking) return workflowRun(b, blocking.run, blocking.runTasks);
  return workflowRun(b, look.target, look.targetTasks);
}
