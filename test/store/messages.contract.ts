/**
 * The contract of the MessageStore port, run against every adapter (messages.memory.test.ts,
 * messages.dynamodb.test.ts): hidden until confirmed, oldest first, an exact bound under 100
 * concurrent adds, expiry filtered on read and making room, withdraw and queue deletion.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageStore, QueuedMessage } from '../../lib/messages/ports.ts';
import { sequenceOf } from '../../lib/messages/service.ts';
import type { ServiceStores } from '../../lib/runtime/stores.ts';

export interface MessageStoresUnderTest {
  stores: ServiceStores;
  cleanup(): Promise<void>;
}

const T0 = 1_700_000_000_000;
let n = 0;
const message = (workflowId: string, at = T0, ttlMs = 60_000): QueuedMessage => {
  n += 1;
  return {
    id: `m-${n}`,
    workflowId,
    payload: { n },
    receivedAt: new Date(at).toISOString(),
    seq: sequenceOf(at),
    expiresAt: at + ttlMs,
  };
};

export function messageStoreContract(adapter: string, factory: () => Promise<MessageStoresUnderTest>): void {
  describe(`MessageStore contract: ${adapter}`, () => {
    let under: MessageStoresUnderTest;
    let store: MessageStore;
    beforeEach(async () => {
      under = await factory();
      store = under.stores.messages;
    });
    afterEach(async () => {
      await under.cleanup();
    });

    it('hides an added message until confirmed, then peeks oldest first', async () => {
      const [a, b] = [message('wf'), message('wf', T0 + 1)];
      if (!a || !b) throw new Error('no messages');
      expect(await store.add(b, 10, T0)).toBe('added');
      expect(await store.add(a, 10, T0)).toBe('added');
      expect(await store.peek('wf', T0, 10)).toEqual([]);
      await store.confirm('wf', b.seq);
      await store.confirm('wf', a.seq);
      expect((await store.peek('wf', T0, 10)).map((m) => m.id)).toEqual([a.id, b.id]);
      expect((await store.peek('wf', T0, 1)).map((m) => m.id)).toEqual([a.id]);
      expect(await store.peek('other', T0, 10)).toEqual([]);
    });

    it('accepts exactly the limit of 100 concurrent adds', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, () => store.add(message('busy'), 50, T0)),
      );
      expect(outcomes.filter((o) => o === 'added')).toHaveLength(50);
      expect(outcomes.filter((o) => o === 'full')).toHaveLength(50);
    });

    it('filters expired messages on read and drops them to make room', async () => {
      const old = message('ttl', T0, 1000);
      expect(await store.add(old, 1, T0)).toBe('added');
      await store.confirm('ttl', old.seq);
      expect(await store.add(message('ttl', T0 + 10), 1, T0 + 10)).toBe('full');
      expect(await store.peek('ttl', T0 + 999, 10)).toHaveLength(1);
      expect(await store.peek('ttl', T0 + 1000, 10)).toEqual([]);
      const fresh = message('ttl', T0 + 2000);
      expect(await store.add(fresh, 1, T0 + 2000)).toBe('added');
      await store.confirm('ttl', fresh.seq);
      expect((await store.peek('ttl', T0 + 2000, 10)).map((m) => m.id)).toEqual([fresh.id]);
    });

    it('withdraws a message and frees its place', async () => {
      const m = message('w');
      await store.add(m, 1, T0);
      await store.withdraw('w', m.seq);
      await store.confirm('w', m.seq);
      expect(await store.peek('w', T0, 10)).toEqual([]);
      expect(await store.add(message('w'), 1, T0)).toBe('added');
    });

    it('deletes a whole queue and starts it again empty', async () => {
      for (let i = 0; i < 3; i++) {
        const m = message('gone');
        await store.add(m, 3, T0);
        await store.confirm('gone', m.seq);
      }
      await store.deleteQueue('gone');
      expect(await store.peek('gone', T0, 10)).toEqual([]);
      expect(await store.add(message('gone'), 1, T0)).toBe('added');
    });
  });
}
