/**
 * The decider on its own (docs/conductor-compat.md §4.2): a pure function of a run's state and the
 * time, answering the next state and the effects for the executor. Runs are set up through the
 * in-memory engine, then decided directly.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DecideEnv, decide } from '../../lib/engine/decider.ts';
import { defaultRegistry } from '../../lib/engine/tasks/index.ts';
import type { TaskRecord, WorkflowRecord } from '../../lib/model/execution.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';

describe('decide', () => {
  let h: EngineHarness;
  let env: DecideEnv;
  beforeEach(async () => {
    h = await engineHarness();
    env = {
      now: h.clock.now(),
      registry: defaultRegistry({ scripts: h.services.scripts, clock: h.clock }),
    };
    await h.registerTaskDefs([{ name: 'job', retryCount: 1, retryDelaySeconds: 30 }]);
    await h.register({
      name: 'two_jobs',
      tasks: [
        { name: 'job', taskReferenceName: 'a' },
        { name: 'job', taskReferenceName: 'b' },
      ],
    });
  });
  afterEach(() => h.close());

  /** The committed run with its first task's state replaced, as the executor would read it. */
  async function runWithFirstTask(changes: Partial<TaskRecord>): Promise<WorkflowRecord> {
    const id = await h.start('two_jobs');
    const run = await h.run(id);
    const [first] = run.tasks;
    if (!first) throw new Error('no first task');
    Object.assign(first, changes);
    return run;
  }

  it('leaves the record it is given untouched', async () => {
    const run = await runWithFirstTask({ status: 'COMPLETED', outputData: { ok: true } });
    const before = structuredClone(run);
    const result = await decide(run, env);
    expect(run).toEqual(before);
    expect(result.workflow.tasks.map((t) => t.referenceTaskName)).toEqual(['a', 'b']);
  });

  it('decides the same way twice from the same state and time', async () => {
    const run = await runWithFirstTask({ status: 'COMPLETED', outputData: { ok: true } });
    const first = await decide(run, env);
    const second = await decide(run, env);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect([...second.createdTaskIds]).toEqual([...first.createdTaskIds]);
  });

  it('hands the executor a failed attempt to rewrite and its new attempt to queue after the delay', async () => {
    const run = await runWithFirstTask({ status: 'FAILED', reasonForIncompletion: 'nope' });
    const failedId = run.tasks[0]?.taskId;
    const result = await decide(run, { ...env, now: env.now + 5_000 });

    const [retry] = result.toQueue;
    expect(result.toQueue).toHaveLength(1);
    expect(retry).toMatchObject({
      referenceTaskName: 'a',
      retryCount: 1,
      retriedTaskId: failedId,
      scheduledTime: env.now + 5_000,
      callbackAfterSeconds: 30,
    });
    expect(result.createdTaskIds).toEqual(new Set([retry?.taskId]));
    expect(result.changedTasks.find((t) => t.taskId === failedId)).toMatchObject({ retried: true });
    expect(result.ended).toBe(false);
  });

  it('cancels the open tasks of a run ended from outside, without ending it again', async () => {
    const run = await runWithFirstTask({ status: 'IN_PROGRESS' });
    run.status = 'TERMINATED';
    const result = await decide(run, env);
    expect(result.workflow.tasks.map((t) => t.status)).toEqual(['CANCELED']);
    expect(result.changedTasks.map((t) => t.referenceTaskName)).toEqual(['a']);
    expect(result.ended).toBe(false);
    expect(result.toQueue).toEqual([]);
  });
});
