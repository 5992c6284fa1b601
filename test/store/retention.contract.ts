/**
 * Retention of the rows that carry `ttl` (README "Operations"): task log lines, poll data and
 * schedule execution records are stamped with their expiry as they are written, and a read never
 * returns an expired one, whether or not the store has deleted it (DynamoDB deletes up to 48 h
 * late, dynalite and the memory store never do). Run over the retention decorators on every
 * adapter (retention.memory.test.ts, retention.dynamodb.test.ts), with a manual clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import type { ServiceStores } from '../../lib/runtime/store-bundle.ts';
import type { ScheduleStore } from '../../lib/scheduler/ports.ts';
import { retainingScheduleExecutions } from '../../lib/scheduler/retention.ts';
import type { ExecutionStore, PollDataStore } from '../../lib/store/ports.ts';
import { retainingPollData } from '../../lib/tasks/poll-data-retention.ts';
import { retainingExecutions } from '../../lib/workflows/retention.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

export interface RetentionUnderTest {
  stores: ServiceStores;
  /**
   * The `ttl` attribute (epoch seconds) of every stored item whose partition key contains the
   * text, when the adapter writes one (DynamoDB); absent for adapters without TTL.
   */
  storedTtls?(pkPart: string): Promise<number[]>;
  cleanup(): Promise<void>;
}

export function retentionContract(name: string, factory: () => Promise<RetentionUnderTest>): void {
  describe(`retention of rows with a TTL: ${name}`, () => {
    let under: RetentionUnderTest;
    let clock: ManualClock;
    let executions: ExecutionStore;
    let pollData: PollDataStore;
    let schedules: ScheduleStore;

    beforeEach(async () => {
      under = await factory();
      clock = new ManualClock(T0);
      executions = retainingExecutions(under.stores.executions, { runsMs: 0, logsMs: 30 * DAY }, clock);
      pollData = retainingPollData(under.stores.pollData, 7 * DAY, clock);
      schedules = retainingScheduleExecutions(under.stores.schedules, 30 * DAY, clock);
    });
    afterEach(() => under.cleanup());

    it('keeps task log lines for the retention, then never returns them', async () => {
      await executions.appendLogs([{ taskId: 't1', log: 'first', createdTime: T0 }]);
      clock.advance(10 * DAY);
      await executions.appendLogs([{ taskId: 't1', log: 'second', createdTime: T0 + 10 * DAY }]);
      expect(await executions.logs('t1')).toEqual([
        { taskId: 't1', log: 'first', createdTime: T0 },
        { taskId: 't1', log: 'second', createdTime: T0 + 10 * DAY },
      ]);
      const ttls = await under.storedTtls?.('LOG#t1');
      if (ttls) expect(ttls.sort()).toEqual([(T0 + 30 * DAY) / 1000, (T0 + 40 * DAY) / 1000]);
      clock.set(T0 + 30 * DAY);
      expect((await executions.logs('t1')).map((l) => l.log)).toEqual(['second']);
      clock.set(T0 + 40 * DAY);
      expect(await executions.logs('t1')).toEqual([]);
    });

    it("forgets a worker's last poll once it has not polled for the retention; a new poll renews it", async () => {
      await pollData.record({ queueName: 'encode', workerId: 'w1', lastPollTime: T0 });
      await pollData.record({ queueName: 'encode', workerId: 'w2', lastPollTime: T0 });
      clock.advance(6 * DAY);
      await pollData.record({ queueName: 'encode', workerId: 'w2', lastPollTime: T0 + 6 * DAY });
      const ttls = await under.storedTtls?.('encode');
      if (ttls) expect(ttls.sort()).toEqual([(T0 + 7 * DAY) / 1000, (T0 + 13 * DAY) / 1000]);
      clock.set(T0 + 7 * DAY);
      expect(await pollData.list('encode')).toEqual([
        { queueName: 'encode', workerId: 'w2', lastPollTime: T0 + 6 * DAY },
      ]);
      expect((await pollData.list()).map((p) => p.workerId)).toEqual(['w2']);
      clock.set(T0 + 13 * DAY);
      expect(await pollData.list('encode')).toEqual([]);
      expect(await pollData.list()).toEqual([]);
    });

    it('keeps schedule execution records for the retention after their scheduled time', async () => {
      const record = {
        executionId: 'e1',
        scheduleName: 's',
        scheduledTime: T0,
        executionTime: T0 + 5,
        workflowName: 'wf',
        startWorkflowRequest: { name: 'wf' },
        state: 'POLLED' as const,
        zoneId: 'UTC',
        cronExpression: '0 * * * * *',
      };
      expect(await schedules.claimExecution(record)).toBeUndefined();
      await schedules.putExecution({ ...record, state: 'EXECUTED', workflowId: 'w1' });
      const ttls = await under.storedTtls?.('E#e1');
      if (ttls) expect(ttls).toEqual([(T0 + 30 * DAY) / 1000]);
      clock.set(T0 + 30 * DAY - 1);
      expect(await schedules.getExecution('e1')).toEqual({ ...record, state: 'EXECUTED', workflowId: 'w1' });
      expect((await schedules.recentExecutions(10)).map((e) => e.executionId)).toEqual(['e1']);
      clock.set(T0 + 30 * DAY);
      expect(await schedules.getExecution('e1')).toBeUndefined();
      expect(await schedules.recentExecutions(10)).toEqual([]);
      // The claim still holds: the same fire never happens twice.
      expect(await schedules.claimExecution(record)).toMatchObject({ executionId: 'e1', state: 'EXECUTED' });
    });
  });
}
