/**
 * The contract of the scheduler's store (lib/scheduler/ports.ts), run against every adapter:
 * schedules.memory.test.ts and schedules.dynamodb.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VersionConflictError } from '../../lib/model/errors.ts';
import type { ScheduleExecution, ScheduleRecord } from '../../lib/scheduler/model.ts';
import type { ScheduleStore } from '../../lib/scheduler/ports.ts';

export interface ScheduleStoreUnderTest {
  stores: { schedules: ScheduleStore };
  cleanup(): Promise<void>;
}

function schedule(name: string, extra: Partial<ScheduleRecord> = {}): ScheduleRecord {
  return {
    name,
    cronExpression: '0 * * * * *',
    startWorkflowRequest: { name: 'wf', input: { nested: { list: [1, 2] } } },
    runCatchupScheduleInstances: false,
    paused: false,
    rev: 1,
    nextDispatchTime: 1000,
    ...extra,
  };
}

function execution(
  id: string,
  scheduledTime: number,
  extra: Partial<ScheduleExecution> = {},
): ScheduleExecution {
  return {
    executionId: id,
    scheduleName: 's',
    scheduledTime,
    executionTime: scheduledTime + 5,
    workflowName: 'wf',
    startWorkflowRequest: { name: 'wf' },
    state: 'POLLED',
    zoneId: 'UTC',
    cronExpression: '0 * * * * *',
    ...extra,
  };
}

export function scheduleStoreContract(name: string, factory: () => Promise<ScheduleStoreUnderTest>): void {
  describe(`ScheduleStore contract: ${name}`, () => {
    let under: ScheduleStoreUnderTest;
    let store: ScheduleStore;
    beforeEach(async () => {
      under = await factory();
      store = under.stores.schedules;
    });
    afterEach(() => under.cleanup());

    it('creates a schedule once and replaces it only at the version it was read at', async () => {
      await store.save(schedule('a'), undefined);
      await expect(store.save(schedule('a'), undefined)).rejects.toBeInstanceOf(VersionConflictError);
      expect(await store.get('a')).toEqual(schedule('a'));
      await store.save(schedule('a', { rev: 2, description: 'two' }), 1);
      await expect(store.save(schedule('a', { rev: 3 }), 1)).rejects.toBeInstanceOf(VersionConflictError);
      expect((await store.get('a'))?.description).toBe('two');
      expect(await store.get('missing')).toBeUndefined();
    });

    it('keeps a schedule its tags with it, through a save at the next version', async () => {
      const tags = [
        { key: 'env', value: 'test' },
        { key: 'ünï', value: '' },
      ];
      await store.save(schedule('tagged', { tags }), undefined);
      expect((await store.get('tagged'))?.tags).toEqual(tags);
      await store.save(schedule('tagged', { rev: 2, tags: [tags[0] as (typeof tags)[0]] }), 1);
      expect((await store.get('tagged'))?.tags).toEqual([tags[0]]);
      expect((await store.list()).find((s) => s.name === 'tagged')?.tags).toEqual([tags[0]]);
    });

    it('lets exactly one of two concurrent writers at one version win', async () => {
      await store.save(schedule('race'), undefined);
      const results = await Promise.allSettled([
        store.save(schedule('race', { rev: 2, description: 'x' }), 1),
        store.save(schedule('race', { rev: 2, description: 'y' }), 1),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    });

    it('lists schedules by name and deletes them', async () => {
      await store.save(schedule('b'), undefined);
      await store.save(schedule('a'), undefined);
      expect((await store.list()).map((s) => s.name)).toEqual(['a', 'b']);
      expect(await store.delete('a')).toBe(true);
      expect(await store.delete('a')).toBe(false);
      expect((await store.list()).map((s) => s.name)).toEqual(['b']);
    });

    it('finds active schedules due before a time, soonest first, leaving out paused ones and those with nothing left', async () => {
      await store.save(schedule('late', { nextDispatchTime: 5000 }), undefined);
      await store.save(schedule('soon', { nextDispatchTime: 2000 }), undefined);
      await store.save(schedule('paused', { nextDispatchTime: 1000, paused: true }), undefined);
      await store.save(schedule('done', { nextDispatchTime: undefined }), undefined);
      await store.save(schedule('future', { nextDispatchTime: 9000 }), undefined);
      expect((await store.due(6000, 10)).map((s) => s.name)).toEqual(['soon', 'late']);
      expect((await store.due(6000, 1)).map((s) => s.name)).toEqual(['soon']);
      // Moving the time moves the schedule in the index; pausing takes it out.
      await store.save(schedule('soon', { rev: 2, nextDispatchTime: 7000 }), 1);
      await store.save(schedule('late', { rev: 2, nextDispatchTime: 5000, paused: true }), 1);
      expect((await store.due(8000, 10)).map((s) => s.name)).toEqual(['soon']);
    });

    it('claims an execution once and answers the existing one afterwards', async () => {
      expect(await store.claimExecution(execution('e1', 100))).toBeUndefined();
      expect(await store.claimExecution(execution('e1', 100, { executionTime: 999 }))).toEqual(
        execution('e1', 100),
      );
      await store.putExecution(execution('e1', 100, { state: 'EXECUTED', workflowId: 'w1' }));
      expect(await store.getExecution('e1')).toMatchObject({ state: 'EXECUTED', workflowId: 'w1' });
      const claims = await Promise.all([1, 2, 3].map(() => store.claimExecution(execution('e2', 200))));
      expect(claims.filter((c) => c === undefined)).toHaveLength(1);
    });

    it('lists execution records newest first', async () => {
      await store.claimExecution(execution('x', 100));
      await store.claimExecution(execution('y', 300));
      await store.claimExecution(execution('z', 200));
      expect((await store.recentExecutions(10)).map((e) => e.executionId)).toEqual(['y', 'z', 'x']);
      expect((await store.recentExecutions(2)).map((e) => e.executionId)).toEqual(['y', 'z']);
    });

    it('keeps the scheduler switch', async () => {
      expect(await store.state()).toEqual({ paused: false });
      await store.setState({ paused: true });
      expect(await store.state()).toEqual({ paused: true });
    });
  });
}
