/**
 * Firing on a manual clock: seconds precision, zones, start/end bounds, catch-up after downtime and
 * after a pause, exactly-once under duplicated messages and two tickers, and the execution records.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a correlation id that looks like a template is
// copied literally.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../lib/log/logger.ts';
import { executionIdOf, ScheduleDispatcher } from '../../lib/scheduler/dispatcher.ts';
import { LATE_TOLERANCE_MS, MAX_CATCH_UP } from '../../lib/scheduler/plan.ts';
import { scheduleBody, schedulerRig } from './rig.ts';

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
const SECOND = 1000;
const MINUTE = 60_000;

describe('scheduler firing', () => {
  it('fires a seconds cron at its seconds, with the scheduler input keys and the correlation id copied literally', async () => {
    const rig = await schedulerRig(T0 + 500);
    const body = scheduleBody(rig, { cronExpression: '*/15 * * * * *' });
    const saved = await rig.service.save(body);
    expect(saved.nextRunTime).toBe(T0 + 15 * SECOND);
    // The save dispatched its first window: fires at :15, :30, :45, ... delayed to their second.
    expect(rig.queue.sent.slice(0, 3).map((s) => [s.message.scheduledTime, s.dueAt])).toEqual([
      [T0 + 15 * SECOND, T0 + 15 * SECOND],
      [T0 + 30 * SECOND, T0 + 30 * SECOND],
      [T0 + 45 * SECOND, T0 + 45 * SECOND],
    ]);
    await rig.run(MINUTE);
    const runs = await rig.runs();
    expect(runs.map((r) => r.input._scheduledTime)).toEqual([
      T0 + 15 * SECOND,
      T0 + 30 * SECOND,
      T0 + 45 * SECOND,
      T0 + MINUTE,
    ]);
    const first = runs[0];
    expect(first?.correlationId).toBe('${literal}');
    expect(first?.input).toMatchObject({
      a: 1,
      _startedByScheduler: body.name,
      _scheduledTime: T0 + 15 * SECOND,
      _executionId: executionIdOf(String(body.name), '*/15 * * * * *', T0 + 15 * SECOND),
      _schedulerCron: '*/15 * * * * *',
    });
    // Delivered within the second it was due (the rig delivers second by second).
    expect(Number(first?.input._executedTime) - (T0 + 15 * SECOND)).toBeLessThan(SECOND);
    const execution = await rig.h.services.stores.schedules.getExecution(String(first?.input._executionId));
    expect(execution).toMatchObject({
      state: 'EXECUTED',
      workflowId: first?.workflowId,
      scheduleName: body.name,
    });
  });

  it('evaluates each cron entry in its own zone, UTC by default; cronSchedules wins over cronExpression', async () => {
    const rig = await schedulerRig(T0);
    const saved = await rig.service.save(
      scheduleBody(rig, {
        cronExpression: '0 0 1 * * *',
        cronSchedules: [
          { cronExpression: '0 0 9 * * *', zoneId: 'Asia/Tokyo' },
          { cronExpression: '0 0 9 * * *', zoneId: 'America/New_York' },
          { cronExpression: '0 0 9 * * *' },
        ],
      }),
    );
    // 09:00 Tokyo = 00:00Z on Jan 1 (the start instant itself counts), 09:00Z, 09:00 New York = 14:00Z.
    expect(saved.nextRunTime).toBe(T0);
    const next = rig.service.nextFew('0 0 9 * * *', { start: T0 + 1 });
    expect(next[0]).toBe(Date.UTC(2026, 0, 1, 9));
    await rig.run(24 * 60 * MINUTE);
    const times = (await rig.runs()).map((r) => [r.input._scheduledTime, r.input._schedulerCron]);
    expect(times).toEqual([
      [T0, '0 0 9 * * *'],
      [Date.UTC(2026, 0, 1, 9), '0 0 9 * * *'],
      [Date.UTC(2026, 0, 1, 14), '0 0 9 * * *'],
      [Date.UTC(2026, 0, 2), '0 0 9 * * *'],
    ]);
  });

  it('follows croner across daylight-saving time: the first valid time after a gap, a repeated hour once', async () => {
    const spring = await schedulerRig(Date.UTC(2026, 2, 7, 12));
    await spring.service.save(
      scheduleBody(spring, { cronExpression: '0 30 2 * * *', zoneId: 'America/New_York' }),
    );
    await spring.run(24 * 60 * MINUTE);
    // 2026-03-08 02:30 does not exist in New York: it runs at 03:00 EDT = 07:00Z.
    expect((await spring.runs()).map((r) => r.input._scheduledTime)).toEqual([Date.UTC(2026, 2, 8, 7)]);

    const fall = await schedulerRig(Date.UTC(2026, 9, 31, 12));
    await fall.service.save(
      scheduleBody(fall, { cronExpression: '0 30 1 * * *', zoneId: 'America/New_York' }),
    );
    await fall.run(24 * 60 * MINUTE);
    // 2026-11-01 01:30 happens twice: it runs once, at 01:30 EDT = 05:30Z.
    expect((await fall.runs()).map((r) => r.input._scheduledTime)).toEqual([Date.UTC(2026, 10, 1, 5, 30)]);
  });

  it('fires only between scheduleStartTime and scheduleEndTime', async () => {
    const rig = await schedulerRig(T0);
    const saved = await rig.service.save(
      scheduleBody(rig, { scheduleStartTime: T0 + 3 * MINUTE, scheduleEndTime: T0 + 5 * MINUTE }),
    );
    expect(saved.nextRunTime).toBe(T0 + 3 * MINUTE);
    await rig.run(10 * MINUTE);
    expect((await rig.runs()).map((r) => r.input._scheduledTime)).toEqual([
      T0 + 3 * MINUTE,
      T0 + 4 * MINUTE,
      T0 + 5 * MINUTE,
    ]);
    expect((await rig.service.get(String(saved.name))).nextRunTime).toBeUndefined();
  });

  it('skips fire times missed while the service was down, unless runCatchupScheduleInstances replays them', async () => {
    const rig = await schedulerRig(T0 + 1);
    const skip = await rig.service.save(scheduleBody(rig, { name: 'skip' }));
    const replay = await rig.service.save(
      scheduleBody(rig, { name: 'replay', runCatchupScheduleInstances: true }),
    );
    expect([skip.nextRunTime, replay.nextRunTime]).toEqual([T0 + MINUTE, T0 + MINUTE]);
    // Down for 10 minutes: the queued fires died with the process, no tick ran.
    rig.queue.takeDue(Number.MAX_SAFE_INTEGER);
    rig.h.clock.advance(10 * MINUTE);
    await rig.dispatcher.tick(rig.h.clock.now(), { resend: true });
    await rig.deliver();
    const byName = (name: string) =>
      rig
        .runs()
        .then((runs) =>
          runs.filter((r) => r.input._startedByScheduler === name).map((r) => r.input._scheduledTime),
        );
    // Late but within the tolerance: still fired. Older: skipped, or replayed with catch-up.
    const late = (t: number) => t >= T0 + 10 * MINUTE + 1 - LATE_TOLERANCE_MS;
    const all = Array.from({ length: 10 }, (_, i) => T0 + (i + 1) * MINUTE);
    expect(await byName('skip')).toEqual(all.filter(late));
    expect(await byName('replay')).toEqual(all);
  });

  it(`replays at most ${MAX_CATCH_UP} missed fire times, the most recent ones`, async () => {
    const rig = await schedulerRig(T0);
    await rig.service.save(
      scheduleBody(rig, { cronExpression: '* * * * * *', runCatchupScheduleInstances: true }),
    );
    rig.queue.takeDue(Number.MAX_SAFE_INTEGER);
    rig.h.clock.advance(60 * MINUTE);
    const result = await rig.dispatcher.tick(rig.h.clock.now(), { resend: true });
    const now = rig.h.clock.now();
    const missed = rig.queue.sent.filter(
      (s) => s.message.scheduledTime < now - LATE_TOLERANCE_MS && s.dueAt === now,
    );
    expect(missed).toHaveLength(MAX_CATCH_UP);
    expect(missed.at(-1)?.message.scheduledTime).toBe(now - LATE_TOLERANCE_MS - SECOND);
    expect(result.skipped).toBeGreaterThan(0);
  });

  it('never fires a paused schedule; resume goes on from now, or replays the pause with catch-up', async () => {
    const rig = await schedulerRig(T0 + 1);
    const plain = await rig.service.save(scheduleBody(rig, { name: 'plain' }));
    const caught = await rig.service.save(
      scheduleBody(rig, { name: 'caught', runCatchupScheduleInstances: true }),
    );
    await rig.service.pause(String(plain.name), 'maintenance');
    await rig.service.pause(String(caught.name));
    expect(await rig.service.get('plain')).toMatchObject({ paused: true, pausedReason: 'maintenance' });
    await rig.run(5 * MINUTE);
    // Fires already queued for a paused schedule are dropped when they come.
    expect(await rig.runs()).toEqual([]);
    await rig.service.resume('plain');
    await rig.service.resume('caught');
    expect((await rig.service.get('plain')).pausedReason).toBeUndefined();
    await rig.run(MINUTE);
    const of = async (name: string) =>
      (await rig.runs())
        .filter((r) => r.input._startedByScheduler === name)
        .map((r) => r.input._scheduledTime);
    expect(await of('plain')).toEqual([T0 + 6 * MINUTE]);
    expect(await of('caught')).toEqual([1, 2, 3, 4, 5, 6].map((m) => T0 + m * MINUTE));
  });

  it('starts one workflow per fire time for duplicated messages and two tickers', async () => {
    const rig = await schedulerRig(T0 + 1);
    const saved = await rig.service.save(scheduleBody(rig, { cronExpression: '*/10 * * * * *' }));
    // A second ticker and a requeue send the same window again.
    const other = new ScheduleDispatcher({
      schedules: rig.h.services.stores.schedules,
      queue: rig.queue,
      starter: rig.h.services.engine.starter,
      clock: rig.h.clock,
      logger: silentLogger,
    });
    await Promise.all([rig.dispatcher.tick(T0 + 1, { resend: true }), other.tick(T0 + 1, { resend: true })]);
    const perTime = new Map<number, number>();
    for (const s of rig.queue.sent)
      perTime.set(s.message.scheduledTime, (perTime.get(s.message.scheduledTime) ?? 0) + 1);
    expect(Math.min(...perTime.values())).toBeGreaterThanOrEqual(2);
    rig.h.clock.advance(30 * SECOND);
    const outcomes = await rig.deliver();
    expect(outcomes.filter((o) => o === 'executed')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'duplicate').length).toBeGreaterThan(0);
    // The same message delivered concurrently (SQS at-least-once) still starts one run.
    const message = {
      scheduleName: String(saved.name),
      cronExpression: '*/10 * * * * *',
      zoneId: 'UTC',
      scheduledTime: T0 + 40 * SECOND,
    };
    rig.h.clock.set(T0 + 40 * SECOND);
    await Promise.all([
      rig.dispatcher.fire(message),
      rig.dispatcher.fire(message),
      rig.dispatcher.fire(message),
    ]);
    await rig.h.settle();
    expect((await rig.runs()).map((r) => r.input._scheduledTime)).toEqual(
      [10, 20, 30, 40].map((s) => T0 + s * SECOND),
    );
  });

  it('records FAILED with the reason when the workflow cannot start, and drops fires of deleted schedules', async () => {
    const rig = await schedulerRig(T0 + 1);
    const saved = await rig.service.save(scheduleBody(rig));
    await rig.h.services.metadata.deleteWorkflowDef(rig.workflow, 1);
    await rig.run(MINUTE);
    const id = executionIdOf(String(saved.name), '0 * * * * *', T0 + MINUTE);
    const execution = await rig.h.services.stores.schedules.getExecution(id);
    expect(execution).toMatchObject({ state: 'FAILED', scheduledTime: T0 + MINUTE });
    expect(execution?.reason).toContain(rig.workflow);
    await rig.service.delete(String(saved.name));
    await rig.run(2 * MINUTE);
    expect(await rig.h.services.stores.schedules.recentExecutions(10)).toHaveLength(1);
  });

  it('does nothing while the scheduler itself is paused (admin), and catches up when resumed', async () => {
    const rig = await schedulerRig(T0 + 1);
    await rig.service.save(scheduleBody(rig, { runCatchupScheduleInstances: true }));
    await rig.service.setPaused(true);
    await rig.run(3 * MINUTE);
    expect(await rig.runs()).toEqual([]);
    await rig.service.setPaused(false);
    await rig.run(MINUTE);
    // The minutes whose fires were queued before the pause were dropped; the ones after, replayed.
    expect((await rig.runs()).map((r) => r.input._scheduledTime)).toContain(T0 + 4 * MINUTE);
  });
});
