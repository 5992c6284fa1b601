// The queue monitor in a real browser: a worker queue with tasks waiting and no worker is flagged;
// one a worker polled names the worker and when it polled; queues with a domain are told apart.
import { describe, expect, it } from 'vitest';
import { uniqueName, worker } from '../../helpers/fixtures.ts';
import { useBrowser } from '../browser.ts';

/** Runs and pages settle within this on a loaded two-core machine. */
const SLOW = { timeout: 10_000 };

describe('the queue monitor', () => {
  const ui = useBrowser();

  it('lists each queue with its waiting tasks, domain and the workers that polled it', async () => {
    const base = uniqueName('ui_q');
    await ui.api('POST', '/api/metadata/workflow', {
      name: base,
      version: 1,
      tasks: [worker(`${base}_waiting`)],
    });
    await ui.api('POST', `/api/workflow/${base}`, {});
    await ui.api('POST', `/api/workflow/${base}`, {});
    await ui.api('POST', '/api/workflow', { name: base, taskToDomain: { '*': 'blue' } });
    await expect
      .poll(async () => (await ui.api('GET', '/api/tasks/queue/all')) as Record<string, number>, SLOW)
      .toMatchObject({ [`${base}_waiting`]: 2, [`blue:${base}_waiting`]: 1 });
    // A worker polls a type with nothing queued: polled, empty.
    await ui.api('GET', `/api/tasks/poll/${base}_idle?workerId=host-7`);

    const { page } = ui;
    await page.goto(`${ui.url}/queue-monitor`);
    await page.getByLabel('Filter by task type').fill(base);
    const table = page.getByRole('table', { name: 'Task queues' });
    await expect.poll(() => table.locator('tbody tr').count(), SLOW).toBe(3);
    const cells = (queue: string) => table.locator(`tr[data-queue="${queue}"] td`).allTextContents();
    const waiting = await cells(`${base}_waiting`);
    expect(waiting.slice(0, 4)).toEqual([`${base}_waiting`, 'none', '2No worker has polled', 'none']);
    expect((await cells(`blue:${base}_waiting`)).slice(0, 3)).toEqual([
      `${base}_waiting`,
      'blue',
      '1No worker has polled',
    ]);
    const idle = await cells(`${base}_idle`);
    expect(idle[2]).toBe('0');
    expect(idle[3]).toMatch(/^host-7 \d+(\.\d+)? (ms|s) ago$/);
    expect(idle[4]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    await ui.shot('queue-monitor');

    // Refresh reads the sizes again: a poll takes one waiting task.
    await ui.api('GET', `/api/tasks/poll/${base}_waiting?workerId=host-8`);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => cells(`${base}_waiting`).then((c) => c[2]), SLOW).toBe('1');
    expect((await cells(`${base}_waiting`))[3]).toMatch(/^host-8 /);
  });
});
