/** The memory stores' copy (lib/store/memory/isolate.ts) gives what a JSON round trip gives. */
import { describe, expect, it } from 'vitest';
import { isolate } from '../../lib/store/memory/isolate.ts';

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('isolate', () => {
  it('equals a JSON round trip, key order and all, for plain data with the values JSON drops or changes', () => {
    const value = {
      a: 1,
      b: 'two',
      c: [1, undefined, () => 1, Number.NaN, { d: null }],
      skipped: undefined,
      fn: () => 2,
      infinite: Number.POSITIVE_INFINITY,
      nested: { deep: { deeper: [true, false, 'x'] } },
      when: new Date(0),
      withToJson: { toJSON: () => 'custom' },
      bare: Object.assign(Object.create(null), { x: 1 }),
    };
    const copy = isolate(value);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(roundTrip(value)));
    expect(Object.keys(copy)).toEqual(Object.keys(roundTrip(value)));
    expect(copy).toStrictEqual(roundTrip(value));
  });

  it('shares no unfrozen object with its source, so changing either leaves the other alone', () => {
    const value = { list: [{ n: 1 }], inner: { m: 2 } };
    const copy = isolate(value);
    (copy.list[0] as { n: number }).n = 9;
    copy.inner.m = 9;
    value.list.push({ n: 3 });
    expect(value).toEqual({ list: [{ n: 1 }, { n: 3 }], inner: { m: 2 } });
    expect(copy).toEqual({ list: [{ n: 9 }], inner: { m: 9 } });
  });

  it('keeps a __proto__ key as data, as JSON.parse does', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"x": 1}}') as object;
    const copy = isolate(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shares frozen objects, which nobody can change', () => {
    const definition = Object.freeze({ name: 'wf', tasks: Object.freeze([]) });
    const copy = isolate({ definition, other: { x: 1 } });
    expect(copy.definition).toBe(definition);
  });
});
