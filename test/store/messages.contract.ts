/**
 * The contract of the MessageStore port, run against every adapter (messages.memory.test.ts,
 * messages.dynamodb.test.ts): hidden until confirmed, oldest first, exclusive claims, an exact bound under
 * 100 concurrent adds, expiry filtered on read and making room, withdraw and queue deletion.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageStore, QueuedMessage } from '../../lib/messages/ports.ts';
import { sequenceOf } from '../../lib/messages/service.ts';
import type { ServiceStores } from '../../lib/runtime/store-bundle.ts';

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

    async function queued(workflowId: string, count: number): Promise<QueuedMessage[]> {
      const out: QueuedMessage[] = [];
      for (let i = 0; i < count; i++) {
        const m = message(workflowId, T0 + i);
        await store.add(m, 1000, T0);
        await store.confirm(workflowId, m.seq);
        out.push(m);
      }
      return out;
    }

    it('claims each message for one task only, even under racing claims', async () => {
      const all = await queued('c', 10);
      const [a, b, c] = await Promise.all([
        store.claim('c', 'task-a', T0, 4),
        store.claim('c', 'task-b', T0, 4),
        store.claim('c', 'task-c', T0, 4),
      ]);
      const ids = [...(a ?? []), ...(b ?? []), ...(c ?? [])].map((m) => m.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(all.map((m) => m.id).sort());
      expect(await store.peek('c', T0, 100)).toEqual([]);
    });

    it('hands a task its own claim again first, and frees claimed places in the bound', async () => {
      const all = await queued('again', 3);
      const first = await store.claim('again', 'task-a', T0, 2);
      expect(first.map((m) => m.id)).toEqual(all.slice(0, 2).map((m) => m.id));
      expect((await store.claim('again', 'task-a', T0, 2)).map((m) => m.id)).toEqual(first.map((m) => m.id));
      expect((await store.claims('again')).get('task-a')?.map((m) => m.id)).toEqual(first.map((m) => m.id));
      // Two of three are claimed: one place is taken in a queue of two.
      expect(await store.add(message('again'), 2, T0)).toBe('added');
      expect(await store.add(message('again'), 2, T0)).toBe('full');
    });

    it('settles a claim: delivered messages leave, the rest return to the queue', async () => {
      const all = await queued('s', 3);
      await store.claim('s', 'task-a', T0, 3);
      await store.settle('s', 'task-a', [all[0]?.id ?? '']);
      expect((await store.claims('s')).size).toBe(0);
      expect((await store.peek('s', T0, 10)).map((m) => m.id)).toEqual(all.slice(1).map((m) => m.id));
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
