import { describe, expect, it } from 'vitest';
import { watchLoop } from './loop-watch.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('watchLoop', () => {
  it('counts a block of the loop by work in this process', async () => {
    const watch = watchLoop();
    await tick();
    const until = performance.now() + 250;
    while (performance.now() < until) {
      // Busy: the loop is held and the CPU burned.
    }
    await tick();
    expect(watch.stop()).toBeGreaterThan(150);
  });

  it('does not count a hold that burns no CPU, as when the machine stops running the process', async () => {
    const watch = watchLoop();
    await tick();
    // Sleeps the thread: the loop is held as long, but nothing runs.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    await tick();
    expect(watch.stop()).toBeLessThan(100);
  });
});
