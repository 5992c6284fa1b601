/**
 * The keyed notifier (lib/model/notifier.ts): a publish wakes the watches of its key (waiting ones
 * up to the number it asks for, every one not waiting); with a re-read
 * policy a wait with nothing published ends at re-read ticks that grow up to the cap and start again
 * from the first interval after a change.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalNotifier, type WakeReason, type Watch } from '../../lib/model/notifier.ts';

describe('LocalNotifier', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('wakes the watches of the published key only', async () => {
    const notifier = new LocalNotifier();
    const a = notifier.watch(['queue-a']);
    const b = notifier.watch(['queue-b']);
    const woken = a.next(60_000);
    notifier.publish('queue-a');
    expect(await woken).toBe('changed');
    expect(await b.next(0)).toBe('timeout');
    a.close();
    b.close();
  });

  it('wakes at most the number of waiting watches asked for, oldest first; the others keep waiting', async () => {
    vi.useFakeTimers();
    const notifier = new LocalNotifier();
    const [a, b, c] = [1, 2, 3].map(() => notifier.watch(['q'])) as [Watch, Watch, Watch];
    const reasons: Record<string, WakeReason> = {};
    const waits = Object.entries({ a, b, c }).map(([name, watch]) =>
      watch.next(1_000).then((reason) => {
        reasons[name] = reason;
      }),
    );
    notifier.publish('q', 2);
    await vi.advanceTimersByTimeAsync(0);
    expect(reasons).toEqual({ a: 'changed', b: 'changed' });
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(waits);
    expect(reasons.c).toBe('timeout');
    for (const watch of [a, b, c]) watch.close();
  });

  it('tells every watch that is not waiting, whatever the bound: its next wait ends at once', async () => {
    const notifier = new LocalNotifier();
    const waiting = notifier.watch(['q']);
    const looking = notifier.watch(['q']);
    const woken = waiting.next(60_000);
    notifier.publish('q', 1);
    expect(await woken).toBe('changed');
    // `looking` was between two waits (looking at its queue) when the change came.
    expect(await looking.next(60_000)).toBe('changed');
    waiting.close();
    looking.close();
  });

  it('re-reads with back-off: intervals double up to the cap, and a change resets them', async () => {
    vi.useFakeTimers();
    const notifier = new LocalNotifier({ initialMs: 10, maxMs: 40 });
    const watch = notifier.watch(['q']);
    // Elapsed fake time until each wait ends.
    const waitTook = async (): Promise<[WakeReason, number]> => {
      const began = Date.now();
      const pending = watch.next(60_000);
      await vi.advanceTimersToNextTimerAsync();
      return [await pending, Date.now() - began];
    };
    expect(await waitTook()).toEqual(['reread', 10]);
    expect(await waitTook()).toEqual(['reread', 20]);
    expect(await waitTook()).toEqual(['reread', 40]);
    expect(await waitTook()).toEqual(['reread', 40]);
    notifier.publish('q');
    expect(await watch.next(60_000)).toBe('changed');
    expect(await waitTook()).toEqual(['reread', 10]);
    watch.close();
  });

  it('ends at the timeout when it comes before the next re-read', async () => {
    vi.useFakeTimers();
    const watch = new LocalNotifier({ initialMs: 100 }).watch(['q']);
    const pending = watch.next(30);
    await vi.advanceTimersByTimeAsync(30);
    expect(await pending).toBe('timeout');
    watch.close();
  });
});
