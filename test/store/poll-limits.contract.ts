/**
 * The contract of the PollLimitStore port (poll-time limits held in the store), run against every
 * adapter: poll-limits.memory.test.ts and poll-limits.dynamodb.test.ts. Concurrent acquires never
 * hand out more slots than the limit; a holder acquiring again keeps its one slot; a window counts
 * up to its limit, and windows and definitions are counted apart.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PollLimitStore } from '../../lib/store/ports.ts';
import type { StoresUnderTest } from './definitions.contract.ts';

const holder = (n: number) => ({ workflowId: `wf-${n}`, taskId: `task-${n}` });
const T0 = 1_700_000_000_000;

export function pollLimitStoreContract(name: string, factory: () => Promise<StoresUnderTest>): void {
  describe(`poll limit store contract: ${name}`, () => {
    let subject: StoresUnderTest;
    let limits: PollLimitStore;

    beforeEach(async () => {
      subject = await factory();
      limits = subject.stores.limits;
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    it('hands out at most the limit of slots to concurrent acquires', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => limits.acquire('def', 3, holder(i))),
      );
      expect(results.filter(Boolean)).toHaveLength(3);
      const held = await limits.holders('def');
      expect(held).toHaveLength(3);
      expect(held.every((h) => h.workflowId === h.taskId.replace('task', 'wf'))).toBe(true);
    });

    it('lets a holder acquire again without taking a second slot, and frees its slot on release', async () => {
      expect(await limits.acquire('def', 2, holder(1))).toBe(true);
      expect(await limits.acquire('def', 2, holder(1))).toBe(true);
      expect(await limits.holders('def')).toEqual([holder(1)]);
      expect(await limits.acquire('def', 1, holder(2))).toBe(false);
      await limits.release('def', holder(1));
      await limits.release('def', holder(9));
      expect(await limits.holders('def')).toEqual([]);
      expect(await limits.acquire('def', 1, holder(2))).toBe(true);
    });

    it('keeps the slots of two definitions apart', async () => {
      expect(await limits.acquire('a', 1, holder(1))).toBe(true);
      expect(await limits.acquire('b', 1, holder(2))).toBe(true);
      expect(await limits.holders('a')).toEqual([holder(1)]);
    });

    it('counts a window up to its limit, concurrent counts included, and each window apart', async () => {
      const counted = await Promise.all(
        Array.from({ length: 6 }, () => limits.countInWindow('def', T0, 4, T0 + 1000)),
      );
      expect(counted.filter(Boolean)).toHaveLength(4);
      expect(await limits.countInWindow('def', T0 + 1000, 4, T0 + 2000)).toBe(true);
      expect(await limits.countInWindow('other', T0, 1, T0 + 1000)).toBe(true);
      expect(await limits.countInWindow('other', T0, 1, T0 + 1000)).toBe(false);
    });
  });
}
