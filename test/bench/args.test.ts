import { describe, expect, it } from 'vitest';
import { Args } from '../../bench/lib/args.ts';

describe('benchmark options', () => {
  it('reads a flag before its BENCH_ variable, and the variable before the default', () => {
    const env = { BENCH_WORKER: 'sdk', BENCH_WORKFLOWS: '300' };
    expect(new Args(['--worker=plain'], env).string('worker', 'plain,sdk')).toBe('plain');
    expect(new Args([], env).string('worker', 'plain,sdk')).toBe('sdk');
    expect(new Args([], {}).string('worker', 'plain,sdk')).toBe('plain,sdk');
    expect(new Args(['--workflows', '1_000'], env).int('workflows', 500)).toBe(1000);
    expect(new Args([], env).int('workflows', 500)).toBe(300);
  });

  it('parses lists of integers and refuses anything else', () => {
    expect(new Args(['--iterations=10, 1000'], {}).intList('iterations', '5')).toEqual([10, 1000]);
    expect(new Args([], {}).intList('iterations', '10,100')).toEqual([10, 100]);
    expect(() => new Args(['--iterations=10,x'], {}).intList('iterations', '5')).toThrow(
      /--iterations must list integers of at least 1/,
    );
    expect(() => new Args(['--iterations=0'], {}).intList('iterations', '5')).toThrow(/at least 1/);
  });
});
