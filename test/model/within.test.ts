import { describe, expect, it } from 'vitest';
import { LATE, within } from '../../lib/model/within.ts';

describe('within', () => {
  it('answers the value of a promise that settles in time', async () => {
    expect(await within(Promise.resolve(7), 1000)).toBe(7);
  });

  it('answers LATE when the time runs out first, leaving the promise going', async () => {
    let settle: (value: string) => void = () => undefined;
    const slow = new Promise<string>((resolve) => {
      settle = resolve;
    });
    expect(await within(slow, 5)).toBe(LATE);
    settle('done');
    expect(await slow).toBe('done');
  });

  it('passes a rejection on', async () => {
    await expect(within(Promise.reject(new Error('no')), 1000)).rejects.toThrow('no');
  });
});
