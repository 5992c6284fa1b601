/**
 * WAIT, HUMAN and YIELD through the in-memory engine (docs/conductor-compat.md §5.12, §5.13, §1.1):
 * deadlines from `duration` and `until` carried by the run's stored wake-up time, waits completed
 * from outside by signal or update by reference, and bad input failing the run.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { type Json, ref } from '../../helpers/fixtures.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

const waitTask = (inputParameters: Json, type = 'WAIT'): Json => ({
  name: 'pause',
  taskReferenceName: 'pause',
  type,
  inputParameters,
});

const after: Json = {
  name: 'after_wait',
  taskReferenceName: 'after_wait',
  type: 'SIMPLE',
  inputParameters: { signal: ref('pause.output') },
};

describe('WAIT', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(() => h.close());

  async function startWaiting(inputParameters: Json, input: Json = {}, type = 'WAIT'): Promise<string> {
    await h.register({ name: `waits_${type}`, tasks: [waitTask(inputParameters, type), after] });
    return h.start(`waits_${type}`, input);
  }

  it('completes a duration wait only once the clock reaches its deadline, then runs the next task', async () => {
    const startedAt = h.clock.now();
    const id = await startWaiting({ duration: '2 minutes 30 seconds' });
    const deadline = startedAt + 2 * MINUTE + 30 * SECOND;
    const waiting = await h.task(id, 'pause');
    expect(waiting?.status).toBe('IN_PROGRESS');
    expect(waiting?.waitTimeout).toBe(deadline);
    expect((await h.run(id)).wakeAt).toBe(deadline);

    await h.advance(2 * MINUTE + 30 * SECOND - 1);
    expect((await h.task(id, 'pause'))?.status).toBe('IN_PROGRESS');
    expect(await h.poll('after_wait')).toBeUndefined();

    await h.advance(1);
    const done = await h.task(id, 'pause');
    expect(done?.status).toBe('COMPLETED');
    expect(done?.endTime).toBe(deadline);
    expect(await h.poll('after_wait')).toBeDefined();
  });

  it('keeps its deadline across a restart: a fresh engine over the same stores completes it when due', async () => {
    const id = await startWaiting({ duration: '10s' });
    const restarted = await engineHarness({ stores: h.stores, clock: h.clock });
    try {
      await restarted.advance(10 * SECOND);
      expect((await restarted.task(id, 'pause'))?.status).toBe('COMPLETED');
      expect((await restarted.task(id, 'after_wait'))?.status).toBe('SCHEDULED');
    } finally {
      await restarted.close();
    }
  });

  it('waits until a wall-clock time given with `until`, in UTC unless a zone is named', async () => {
    // The harness clock starts at 2026-01-01 00:00 UTC.
    const id = await startWaiting({ until: '2026-01-01 01:00 +01:00' }, {});
    const startedAt = h.clock.now();
    expect((await h.task(id, 'pause'))?.waitTimeout).toBe(startedAt);
    expect((await h.task(id, 'pause'))?.status).toBe('COMPLETED');

    const later = await startWaiting({ until: ref('workflow.input.until') }, { until: '2026-01-01 00:45' });
    expect((await h.run(later)).wakeAt).toBe(startedAt + 45 * MINUTE);
    await h.advance(44 * MINUTE);
    expect((await h.task(later, 'pause'))?.status).toBe('IN_PROGRESS');
    await h.advance(MINUTE);
    expect((await h.task(later, 'pause'))?.status).toBe('COMPLETED');
  });

  it('with neither input waits with no wake-up until a signal completes it with the signal output', async () => {
    const id = await startWaiting({});
    expect((await h.task(id, 'pause'))?.waitTimeout).toBe(0);
    expect((await h.run(id)).wakeAt).toBe(0);
    await h.advance(24 * 60 * MINUTE);
    expect((await h.task(id, 'pause'))?.status).toBe('IN_PROGRESS');

    const signaled = await h.services.engine.tasks.signal(id, 'COMPLETED', { approved: true });
    await h.settle();
    expect(signaled?.referenceTaskName).toBe('pause');
    expect((await h.task(id, 'pause'))?.status).toBe('COMPLETED');
    expect((await h.poll('after_wait'))?.inputData).toEqual({ signal: { approved: true } });
  });

  it('with neither input is completed by an update by reference name', async () => {
    const id = await startWaiting({});
    await h.services.engine.tasks.updateByRef(id, 'pause', 'COMPLETED', { by: 'ref' });
    await h.settle();
    expect((await h.task(id, 'pause'))?.outputData).toEqual({ by: 'ref' });
    expect((await h.poll('after_wait'))?.inputData).toEqual({ signal: { by: 'ref' } });
  });

  it('fails the run when a signal fails the wait', async () => {
    const id = await startWaiting({});
    await h.services.engine.tasks.signal(id, 'FAILED', { why: 'rejected' });
    await h.settle();
    expect((await h.task(id, 'pause'))?.status).toBe('FAILED');
    expect((await h.run(id)).status).toBe('FAILED');
  });

  it('fails terminally, and fails the run, when both duration and until are given', async () => {
    // Registration rejects both in one definition; a task definition's input template can still add one.
    await h.registerTaskDefs([{ name: 'pause', inputTemplate: { until: '2026-01-02' } }]);
    const id = await startWaiting({ duration: '5s' });
    const task = await h.task(id, 'pause');
    expect(task?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
    expect(task?.reasonForIncompletion).toContain("Both 'duration' and 'until' specified");
    expect((await h.run(id)).status).toBe('FAILED');
  });

  it('fails terminally when until cannot be read as a date', async () => {
    const id = await startWaiting({ until: ref('workflow.input.until') }, { until: 'next tuesday' });
    const task = await h.task(id, 'pause');
    expect(task?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
    expect(task?.reasonForIncompletion).toContain("Invalid until 'next tuesday'");
    expect((await h.run(id)).status).toBe('FAILED');
  });

  it.each(['HUMAN', 'YIELD'])(
    '%s stays in progress with no wake-up until a signal completes it',
    async (type) => {
      const id = await startWaiting({ duration: '1s' }, {}, type);
      expect((await h.task(id, 'pause'))?.status).toBe('IN_PROGRESS');
      expect((await h.run(id)).wakeAt).toBe(0);
      await h.advance(MINUTE);
      expect((await h.task(id, 'pause'))?.status).toBe('IN_PROGRESS');
      await h.services.engine.tasks.signal(id, 'COMPLETED', { decision: 'yes' });
      await h.settle();
      expect((await h.task(id, 'pause'))?.status).toBe('COMPLETED');
      expect((await h.poll('after_wait'))?.inputData).toEqual({ signal: { decision: 'yes' } });
    },
  );
});
