/**
 * Timeouts (docs/conductor-compat.md §4.5): task response, task, poll and total timeouts under each
 * policy, the workflow timeout, and the stored wake-up time that makes them fire. Time only moves
 * through the manual clock; a wake-up is a field of the run, so it survives a restart.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../lib/model/execution.ts';
import { EARLY_WAKE_MS } from '../../lib/queue/ports.ts';
import { sendsTimer } from '../../lib/queue/sqs.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';

const S = 1000;

describe('task timeouts', () => {
  let h: EngineHarness;
  let t0: number;
  beforeEach(async () => {
    h = await engineHarness();
    t0 = h.clock.now();
  });
  afterEach(() => h.close());

  /** Registers a one-task workflow named after the task definition and starts it. */
  async function startWith(taskDef: Record<string, unknown>): Promise<string> {
    const name = String(taskDef.name);
    await h.registerTaskDefs([taskDef]);
    await h.register({ name: `${name}_flow`, tasks: [{ name, taskReferenceName: 'a' }] });
    return h.start(`${name}_flow`);
  }

  async function pollOne(type: string): Promise<TaskRecord> {
    const task = await h.poll(type);
    if (!task) throw new Error(`no ${type} task to poll`);
    return task;
  }

  /** A worker's heartbeat: restarts the response-timeout clock and changes nothing else. */
  async function heartbeat(task: TaskRecord): Promise<void> {
    await h.services.engine.tasks.update({
      workflowInstanceId: task.workflowInstanceId,
      taskId: task.taskId,
      status: 'IN_PROGRESS',
      extendLease: true,
    });
    await h.settle();
  }

  describe('responseTimeoutSeconds', () => {
    const resp = {
      name: 'resp',
      responseTimeoutSeconds: 10,
      retryCount: 1,
      retryDelaySeconds: 0,
      timeoutPolicy: 'TIME_OUT_WF',
    };

    it('times out an IN_PROGRESS task with no update, whatever the policy, and retries it', async () => {
      const id = await startWith(resp);
      const first = await pollOne('resp');
      expect((await h.run(id)).wakeAt).toBe(t0 + 10 * S);

      await h.advance(10 * S - 1);
      expect((await h.task(id, 'a'))?.status).toBe('IN_PROGRESS');
      await h.advance(1);

      const rows = await h.tasks(id);
      expect(rows.map((t) => [t.retryCount, t.status])).toEqual([
        [0, 'TIMED_OUT'],
        [1, 'SCHEDULED'],
      ]);
      expect(rows[0]?.reasonForIncompletion).toBe('responseTimeout: 10 exceeded for task a');
      expect(rows[1]?.retriedTaskId).toBe(first.taskId);
      // TIME_OUT_WF governs the task timeout, not the response timeout: the run goes on.
      expect((await h.run(id)).status).toBe('RUNNING');
    });

    it('times the run out when a response timeout leaves no retries', async () => {
      const id = await startWith({ ...resp, name: 'resp_once', retryCount: 0 });
      await pollOne('resp_once');
      await h.advance(10 * S);
      const run = await h.run(id);
      expect(run.status).toBe('TIMED_OUT');
      expect(run.wakeAt).toBe(0);
    });

    it('restarts the clock on an extendLease update without touching status or output', async () => {
      const id = await startWith(resp);
      const task = await pollOne('resp');
      await h.advance(8 * S);
      await heartbeat(task);
      expect(await h.task(id, 'a')).toMatchObject({
        status: 'IN_PROGRESS',
        updateTime: t0 + 8 * S,
        outputData: {},
      });

      await h.advance(2 * S); // the original deadline: the decide re-arms for the new one
      expect((await h.task(id, 'a'))?.status).toBe('IN_PROGRESS');
      expect((await h.run(id)).wakeAt).toBe(t0 + 18 * S);

      await h.advance(8 * S - 1);
      expect((await h.task(id, 'a'))?.status).toBe('IN_PROGRESS');
      await h.advance(1);
      expect((await h.tasks(id)).map((t) => t.status)).toEqual(['TIMED_OUT', 'SCHEDULED']);
    });

    it('does not time out a task still waiting to be polled, only looks at it again', async () => {
      const id = await startWith(resp);
      await h.advance(60 * S);
      expect((await h.tasks(id)).map((t) => t.status)).toEqual(['SCHEDULED']);
      // Were it polled now, its response deadline would be 10 s away: that is the next look.
      expect((await h.run(id)).wakeAt).toBe(t0 + 70 * S);
    });
  });

  describe('timeoutSeconds', () => {
    // The worker heartbeats every 9 s so that only the task timeout can fire.
    const timed = (name: string, timeoutPolicy: string) => ({
      name,
      timeoutSeconds: 20,
      responseTimeoutSeconds: 10,
      retryCount: 1,
      retryDelaySeconds: 0,
      timeoutPolicy,
    });

    async function runPastTimeout(id: string, task: TaskRecord): Promise<void> {
      await h.advance(9 * S);
      await heartbeat(task);
      await h.advance(9 * S);
      await heartbeat(task);
      expect((await h.task(id, 'a'))?.status).toBe('IN_PROGRESS');
      await h.advance(2 * S);
    }

    it('with RETRY times the task out and schedules a new attempt', async () => {
      const id = await startWith(timed('t_retry', 'RETRY'));
      const task = await pollOne('t_retry');
      await runPastTimeout(id, task);
      const rows = await h.tasks(id);
      expect(rows.map((t) => [t.retryCount, t.status])).toEqual([
        [0, 'TIMED_OUT'],
        [1, 'SCHEDULED'],
      ]);
      expect(rows[0]?.reasonForIncompletion).toBe(
        'Task timed out after 20 seconds. Timeout configured as 20 seconds.',
      );
      expect((await h.run(id)).status).toBe('RUNNING');
    });

    it('with TIME_OUT_WF times the run out at once, retries left or not', async () => {
      const id = await startWith(timed('t_wf', 'TIME_OUT_WF'));
      const task = await pollOne('t_wf');
      await runPastTimeout(id, task);
      const run = await h.run(id);
      expect(run.status).toBe('TIMED_OUT');
      expect(run.reasonForIncompletion).toBe(
        `Task ${task.taskId} failed with status: TIMED_OUT and reason: 'Task timed out after 20 seconds. Timeout configured as 20 seconds.'`,
      );
      expect(await h.tasks(id)).toHaveLength(1);
    });

    it('with ALERT_ONLY lets the task run on and complete', async () => {
      const id = await startWith(timed('t_alert', 'ALERT_ONLY'));
      const task = await pollOne('t_alert');
      await runPastTimeout(id, task);
      expect((await h.tasks(id)).map((t) => t.status)).toEqual(['IN_PROGRESS']);
      // Only the response deadline is armed: an alert-only deadline needs no wake-up.
      expect((await h.run(id)).wakeAt).toBe(t0 + 28 * S);
      await h.complete(task, { late: 'but fine' });
      expect((await h.run(id)).status).toBe('COMPLETED');
    });

    it('keeps counting while a worker hands the task back with IN_PROGRESS and a callback', async () => {
      const id = await startWith(timed('t_callback', 'TIME_OUT_WF'));
      const task = await pollOne('t_callback');
      await h.advance(1 * S);
      await h.services.engine.tasks.update({
        workflowInstanceId: id,
        taskId: task.taskId,
        status: 'IN_PROGRESS',
        callbackAfterSeconds: 60,
      });
      await h.settle();
      expect((await h.task(id, 'a'))?.status).toBe('SCHEDULED');
      // The stored wake-up may stay at an earlier, still-future time (an early wake re-arms);
      // it must never be later than the deadline.
      const { wakeAt } = await h.run(id);
      expect(wakeAt).toBeGreaterThan(h.clock.now());
      expect(wakeAt).toBeLessThanOrEqual(t0 + 20 * S);

      await h.advance(19 * S);
      expect((await h.run(id)).status).toBe('TIMED_OUT');
    });
  });

  describe('pollTimeoutSeconds', () => {
    it('times out a task nobody polls and retries it', async () => {
      const id = await startWith({
        name: 'unpolled',
        pollTimeoutSeconds: 5,
        retryCount: 1,
        retryDelaySeconds: 0,
        timeoutPolicy: 'RETRY',
      });
      expect((await h.run(id)).wakeAt).toBe(t0 + 5 * S);
      await h.advance(5 * S - 1);
      expect((await h.task(id, 'a'))?.status).toBe('SCHEDULED');
      await h.advance(1);

      const rows = await h.tasks(id);
      expect(rows.map((t) => [t.retryCount, t.status])).toEqual([
        [0, 'TIMED_OUT'],
        [1, 'SCHEDULED'],
      ]);
      expect(rows[0]?.reasonForIncompletion).toBe('Task poll timed out after 5 seconds');
      // The timed-out attempt's queue entry is stale; only the new attempt is handed out.
      expect((await pollOne('unpolled')).retryCount).toBe(1);
    });

    it('stops counting once the task is polled', async () => {
      const id = await startWith({ name: 'polled', pollTimeoutSeconds: 5, retryCount: 0 });
      await pollOne('polled');
      await h.advance(6 * S);
      expect((await h.task(id, 'a'))?.status).toBe('IN_PROGRESS');
    });
  });

  describe('totalTimeoutSeconds', () => {
    it('times out a pending attempt once the total is spent and allows no further retry', async () => {
      const id = await startWith({
        name: 'budget',
        totalTimeoutSeconds: 30,
        retryCount: 5,
        retryDelaySeconds: 0,
        timeoutPolicy: 'RETRY',
      });
      await h.advance(10 * S);
      await h.work('budget', {}, 'FAILED', 'first');
      // The second attempt keeps the first one's clock.
      expect((await h.run(id)).wakeAt).toBe(t0 + 30 * S);
      await h.advance(20 * S);

      const run = await h.run(id);
      expect(run.status).toBe('TIMED_OUT');
      expect((await h.tasks(id)).map((t) => [t.retryCount, t.status])).toEqual([
        [0, 'FAILED'],
        [1, 'TIMED_OUT'],
      ]);
    });

    it('blocks the retry of a failure that comes after the total is spent, even when alerting only', async () => {
      const id = await startWith({
        name: 'budget_alert',
        totalTimeoutSeconds: 30,
        retryCount: 5,
        retryDelaySeconds: 0,
        timeoutPolicy: 'ALERT_ONLY',
      });
      const task = await pollOne('budget_alert');
      await h.advance(31 * S);
      expect((await h.task(id, 'a'))?.status).toBe('IN_PROGRESS');
      await h.complete(task, {}, 'FAILED', 'too late to retry');
      expect((await h.run(id)).status).toBe('FAILED');
      expect(await h.tasks(id)).toHaveLength(1);
    });
  });
});

describe('the workflow timeout', () => {
  let h: EngineHarness;
  let t0: number;
  beforeEach(async () => {
    h = await engineHarness();
    t0 = h.clock.now();
  });
  afterEach(() => h.close());

  it('with TIME_OUT_WF times the run out and cancels what is pending', async () => {
    await h.register({
      name: 'bounded',
      timeoutSeconds: 100,
      timeoutPolicy: 'TIME_OUT_WF',
      tasks: [{ name: 'long', taskReferenceName: 'a' }],
    });
    const id = await h.start('bounded');
    expect((await h.run(id)).wakeAt).toBe(t0 + 100 * S);
    await h.advance(100 * S - 1);
    expect((await h.run(id)).status).toBe('RUNNING');
    await h.advance(1);

    const run = await h.run(id);
    expect(run.status).toBe('TIMED_OUT');
    expect(run.reasonForIncompletion).toBe('Workflow timed out after 100 seconds');
    expect(run.endTime).toBe(t0 + 100 * S);
    expect((await h.task(id, 'a'))?.status).toBe('CANCELED');
    expect(await h.poll('long')).toBeUndefined();
  });

  it('with ALERT_ONLY keeps the run going past the timeout', async () => {
    await h.register({
      name: 'alerting',
      timeoutSeconds: 100,
      timeoutPolicy: 'ALERT_ONLY',
      tasks: [{ name: 'long', taskReferenceName: 'a' }],
    });
    const id = await h.start('alerting');
    // No wake-up for the workflow timeout; only the task's earliest response deadline (ad-hoc: 1 h).
    expect((await h.run(id)).wakeAt).toBe(t0 + 3600 * S);
    await h.advance(500 * S);
    expect((await h.run(id)).status).toBe('RUNNING');
    await h.work('long', { done: true });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('stores the nearest of the workflow and task deadlines as the wake-up time', async () => {
    await h.registerTaskDefs([{ name: 'quick', responseTimeoutSeconds: 10, retryCount: 0 }]);
    await h.register({
      name: 'nearest',
      timeoutSeconds: 100,
      timeoutPolicy: 'TIME_OUT_WF',
      tasks: [{ name: 'quick', taskReferenceName: 'a' }],
    });
    const id = await h.start('nearest');
    // Unpolled, the earliest response deadline is a poll right now + 10 s: sooner than the run's 100 s.
    expect((await h.run(id)).wakeAt).toBe(t0 + 10 * S);
    await h.advance(5 * S);
    await h.poll('quick');
    // Polling does not decide; the wake-up at t0+10 s does, and re-arms at the real deadline.
    await h.advance(5 * S);
    expect((await h.run(id)).wakeAt).toBe(t0 + 15 * S);
    await h.advance(5 * S);
    expect((await h.run(id)).status).toBe('TIMED_OUT');
    expect((await h.task(id, 'a'))?.reasonForIncompletion).toBe('responseTimeout: 10 exceeded for task a');
  });

  it('arms the workflow deadline when it is the nearest one', async () => {
    await h.registerTaskDefs([{ name: 'patient', responseTimeoutSeconds: 600, retryCount: 0 }]);
    await h.register({
      name: 'nearest_wf',
      timeoutSeconds: 100,
      timeoutPolicy: 'TIME_OUT_WF',
      tasks: [{ name: 'patient', taskReferenceName: 'a' }],
    });
    const id = await h.start('nearest_wf');
    expect((await h.run(id)).wakeAt).toBe(t0 + 100 * S);
  });

  it('fires after a restart, because the wake-up is stored with the run', async () => {
    await h.register({
      name: 'durable',
      timeoutSeconds: 100,
      timeoutPolicy: 'TIME_OUT_WF',
      tasks: [{ name: 'long', taskReferenceName: 'a' }],
    });
    const id = await h.start('durable');
    await h.close(); // the process dies; its in-memory timers go with it

    const restarted = await engineHarness({ stores: h.stores, clock: h.clock });
    try {
      await restarted.advance(100 * S);
      expect((await restarted.run(id)).status).toBe('TIMED_OUT');
    } finally {
      await restarted.close();
    }
  });
});

describe('arming wake-ups', () => {
  let h: EngineHarness;
  afterEach(() => h.close());

  /**
   * Records what an SQS decision queue would send (one timer message, one decide later, per arming
   * it sends); while `down.now`, arming fails as a refused SQS send would.
   */
  function recordTimers(harness: EngineHarness): { armed: number[]; down: { now: boolean } } {
    const armed: number[] = [];
    const down = { now: false };
    const wakeAt = harness.decisions.wakeAt.bind(harness.decisions);
    harness.decisions.wakeAt = (workflowId, at, keptSince) => {
      if (down.now && at > 0) return Promise.reject(new Error('SQS is down'));
      if (sendsTimer(at, harness.clock.now(), keptSince)) armed.push(at);
      return wakeAt(workflowId, at, keptSince);
    };
    return { armed, down };
  }

  it('arms a wake-up once when it is stored, not again on each commit that keeps it', async () => {
    h = await engineHarness();
    const types = ['pick', 'pack', 'ship'];
    await h.registerTaskDefs(types.map((name) => ({ name, retryCount: 0, responseTimeoutSeconds: 300 })));
    await h.register({ name: 'order', tasks: types.map((name) => ({ name, taskReferenceName: name })) });
    const { armed } = recordTimers(h);
    const id = await h.start('order');
    const first = (await h.run(id)).wakeAt;
    expect(first).toBe(h.clock.now() + 300 * S);
    for (const type of types) {
      h.clock.advance(S);
      await h.work(type);
    }
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    // Every decide of the run kept the first task's bound, which its first decide stored and armed.
    expect(armed).toEqual([first]);
  });

  it("arms a kept wake-up an operation's commit came between: the operation armed nothing", async () => {
    h = await engineHarness();
    await h.registerTaskDefs([{ name: 'pick', retryCount: 0, responseTimeoutSeconds: 3600 }]);
    await h.register({ name: 'order', tasks: [{ name: 'pick', taskReferenceName: 'pick' }] });
    const { armed } = recordTimers(h);
    const id = await h.start('order');
    expect(await h.poll('pick')).toBeDefined();
    const at = (await h.run(id)).wakeAt;
    expect(at).toBe(h.clock.now() + 3600 * S);
    // Beyond SQS's 15 minutes when stored: nothing sent (the sweeper would find it).
    expect(armed).toEqual([]);

    h.clock.advance(50 * 60 * S);
    await h.services.engine.operations.setVariables(id, { note: 'late' });
    await h.settle();
    // The decide after set-variables keeps the wake-up, now 10 minutes ahead: that one is sent.
    expect((await h.run(id)).wakeAt).toBe(at);
    expect(armed).toEqual([at]);
  });

  it('arms a wake-up whose arming failed when the decide runs again: it arms before it commits', async () => {
    h = await engineHarness();
    await h.registerTaskDefs([{ name: 'pick', retryCount: 0, pollTimeoutSeconds: 60 }]);
    await h.register({ name: 'order', tasks: [{ name: 'pick', taskReferenceName: 'pick' }] });
    const { armed, down } = recordTimers(h);
    down.now = true;
    const id = await h.start('order');
    // The first decide failed arming the poll timeout, and so committed nothing: it runs again.
    const stalled = await h.run(id);
    expect(stalled.tasks).toEqual([]);
    expect(stalled.wakeArmedAt).toBeUndefined();

    down.now = false;
    await h.services.engine.executor.decide(id);
    const run = await h.run(id);
    expect(run.wakeAt).toBe(h.clock.now() + 60 * S);
    expect(armed).toEqual([run.wakeAt]);
  });

  it('arms a kept wake-up again when a plain decide comes just before it (its timer, early)', async () => {
    h = await engineHarness();
    await h.registerTaskDefs([{ name: 'pick', retryCount: 0, responseTimeoutSeconds: 300 }]);
    await h.register({ name: 'order', tasks: [{ name: 'pick', taskReferenceName: 'pick' }] });
    const id = await h.start('order');
    const task = await h.poll('pick');
    const { armed } = recordTimers(h);
    const at = (await h.run(id)).wakeAt;
    h.clock.advance(at - h.clock.now() - EARLY_WAKE_MS / 2);
    // A worker's progress report asks for a decide of its task: not the timer, nothing sent.
    await h.complete(task as TaskRecord, { progress: 1 }, 'IN_PROGRESS');
    expect(armed).toEqual([]);
    // A plain decide this close may be the timer come early: the wake-up is sent again.
    await h.services.engine.executor.decide(id);
    expect((await h.run(id)).wakeAt).toBe(at);
    expect(armed).toEqual([at]);
  });
});
