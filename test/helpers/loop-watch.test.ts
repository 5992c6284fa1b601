import { describe, expect, it } from 'vitest';
import { watchLoop } from './loop-watch.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 30));
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

describe('watchLoop', () => {
  it('counts a block of the loop by work in this process', async () => {
    const watch = watchLoop();
    await tick();
    // Busy until 250 ms of CPU are burned (not 250 ms of wall time: on a loaded machine the
    // process may get only part of that), the loop held all along.
    const start = process.cpuUsage();
    while (cpuMs(process.cpuUsage(start)) < 250) {
      // Busy.
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
