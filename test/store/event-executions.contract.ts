/**
 * The contract of the EventExecutionStore port, run against every adapter: one claim per id even
 * under concurrent claims, a finished execution is never claimed again, an IN_PROGRESS one is taken
 * over only once its lease ran out, lists are per handler, newest first, without expired records,
 * and executions never show up among the handlers sharing their table.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventExecution } from '../../lib/events/model.ts';
import type { EventExecutionStore } from '../../lib/events/ports.ts';
import type { EventStoresUnderTest } from './event-handlers.contract.ts';

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

const execution = (id: string, extra: Partial<EventExecution> = {}): EventExecution => ({
  id,
  messageId: `m-${id}`,
  name: 'h',
  event: 'conductor:wf:done',
  created: T0,
  status: 'IN_PROGRESS',
  action: 'start_workflow',
  payload: { orderId: 7 },
  ...extra,
});

export function eventExecutionStoreContract(
  adapter: string,
  factory: () => Promise<EventStoresUnderTest>,
): void {
  describe(`EventExecutionStore contract: ${adapter}`, () => {
    let under: EventStoresUnderTest;
    let store: EventExecutionStore;
    beforeEach(async () => {
      under = await factory();
      store = under.stores.eventExecutions;
    });
    afterEach(async () => {
      await under.cleanup();
    });

    it('lets one of many concurrent claims of an id win', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () => store.claim(execution('x'), T0 + 60_000, T0 + HOUR, T0)),
      );
      expect(outcomes.filter((o) => o.claimed)).toHaveLength(1);
      for (const o of outcomes.filter((o) => !o.claimed))
        expect(o).toEqual({ claimed: false, existing: execution('x') });
    });

    it('never claims a finished execution again, and takes over an abandoned one only after its lease', async () => {
      expect((await store.claim(execution('a'), T0 + 60_000, T0 + HOUR, T0)).claimed).toBe(true);
      expect((await store.claim(execution('a'), T0 + 90_000, T0 + HOUR, T0 + 59_000)).claimed).toBe(false);
      expect((await store.claim(execution('a'), T0 + 200_000, T0 + HOUR, T0 + 61_000)).claimed).toBe(true);
      const done = execution('a', { status: 'COMPLETED', output: { workflowId: 'w1' } });
      await store.finish(done, T0 + HOUR);
      expect(await store.claim(execution('a'), T0 + 900_000, T0 + HOUR, T0 + 800_000)).toEqual({
        claimed: false,
        existing: done,
      });
    });

    it('lists one handler’s executions newest first from an offset time, without expired ones', async () => {
      await store.finish(execution('old', { created: T0, status: 'SKIPPED' }), T0 + HOUR);
      await store.finish(execution('new', { created: T0 + 10, status: 'COMPLETED' }), T0 + 3 * HOUR);
      await store.finish(execution('other', { name: 'g', created: T0 + 5 }), T0 + 3 * HOUR);
      expect((await store.list('h', T0 + 20, { limit: 10 })).map((e) => e.id)).toEqual(['new', 'old']);
      expect((await store.list('h', T0 + 20, { limit: 1 })).map((e) => e.id)).toEqual(['new']);
      expect((await store.list('h', T0 + 20, { limit: 10, from: T0 + 1 })).map((e) => e.id)).toEqual(['new']);
      expect((await store.list('h', T0 + 2 * HOUR, { limit: 10 })).map((e) => e.id)).toEqual(['new']);
      expect((await store.list('g', T0 + 20, { limit: 10 })).map((e) => e.id)).toEqual(['other']);
    });

    it('claims an expired record as new', async () => {
      await store.finish(execution('e', { status: 'COMPLETED' }), T0 + 1000);
      expect((await store.claim(execution('e'), T0 + 70_000, T0 + HOUR, T0 + 10_000)).claimed).toBe(true);
    });

    it('keeps executions out of the handler list of the same table', async () => {
      await under.stores.eventHandlers.create({
        name: 'h',
        event: 'conductor:wf:done',
        active: true,
        actions: [{ action: 'start_workflow', start_workflow: { name: 'x' } }],
      });
      await store.claim(execution('a'), T0 + 60_000, T0 + HOUR, T0);
      expect((await under.stores.eventHandlers.list()).map((h) => h.name)).toEqual(['h']);
    });
  });
}
