/**
 * The store decorator helper (lib/store/decorate.ts): methods a decorator does not override reach
 * the inner store, called on it, whether they are its own or its classes', and a method of it
 * replaced afterwards is the one called; overrides take their place; a decorator over a decorated
 * store passes the inner functions on as they are; getters and fields are not copied.
 */
import { describe, expect, it } from 'vitest';
import { decorate } from '../../lib/store/decorate.ts';

interface Counter {
  add(n: number): Promise<number>;
  total(): Promise<number>;
}

class BaseCounter implements Counter {
  protected sum = 0;
  async add(n: number): Promise<number> {
    this.sum += n;
    return this.sum;
  }
  async total(): Promise<number> {
    return this.sum;
  }
}

class DoublingCounter extends BaseCounter {
  override async add(n: number): Promise<number> {
    return super.add(2 * n);
  }
  get reads(): number {
    throw new Error('a getter is never read by decorate');
  }
}

describe('decorate', () => {
  it('delegates every method not overridden to the inner store, called on it', async () => {
    const inner = new DoublingCounter();
    const store = decorate<Counter>(inner, {});
    const { add, total } = store;
    expect(await add(3)).toBe(6);
    expect(await total()).toBe(6);
    expect(Object.keys(store).sort()).toEqual(['add', 'total']);
  });

  it('calls a method of the inner store replaced after decorating, as a hand-written call would', async () => {
    const inner = new BaseCounter();
    const store = decorate<Counter>(decorate<Counter>(inner, {}), {});
    inner.total = async () => 42;
    expect(await store.total()).toBe(42);
  });

  it('puts overrides in place of the inner methods, leaving the inner store as it was', async () => {
    const inner = new BaseCounter();
    const store = decorate<Counter>(inner, { total: async () => (await inner.total()) + 100 });
    await store.add(1);
    expect(await store.total()).toBe(101);
    expect(await inner.total()).toBe(1);
  });

  it('passes the functions of a decorated store on as they are, so stacked pass-throughs cost one call', async () => {
    const inner = new BaseCounter();
    const middle = decorate<Counter>(inner, { total: async () => 7 });
    const outer = decorate<Counter>(middle, {});
    expect(outer.add).toBe(middle.add);
    expect(outer.total).toBe(middle.total);
    expect(await outer.total()).toBe(7);
  });

  it('delegates the methods of a plain object too', async () => {
    const calls: number[] = [];
    const inner: Counter = {
      add: async (n) => {
        calls.push(n);
        return n;
      },
      total: async () => calls.length,
    };
    const store = decorate(inner, { add: async (n) => inner.add(n + 1) });
    await store.add(1);
    expect(calls).toEqual([2]);
    expect(await store.total()).toBe(1);
  });
});
