// The scheduler's execution history in a real browser, reached from the Schedules list: a schedule
// firing every second shows its runs, newest first, each linking to the run it started; the State
// filter narrows them.
import { describe, expect, it } from 'vitest';
import { uniqueName, worker } from '../../helpers/fixtures.ts';
import { useBrowser } from '../browser.ts';

/** Schedules fire and pages settle within this on a loaded two-core machine. */
const SLOW = { timeout: 20_000 };

describe('the schedule runs page', () => {
  const ui = useBrowser();

  it('lists the runs a schedule started, reached from the schedules list', async () => {
    const workflow = uniqueName('ui_hist_wf');
    await ui.api('POST', '/api/metadata/workflow', {
      name: workflow,
      version: 1,
      tasks: [worker(`${workflow}_w`)],
    });
    const name = uniqueName('ui_hist');
    await ui.api('POST', '/api/scheduler/schedules', {
      name,
      cronExpression: '* * * * * *',
      startWorkflowRequest: { name: workflow },
    });
    const runs = () =>
      ui.api(
        'GET',
        `/api/scheduler/search/executions?query=${encodeURIComponent(`scheduleName = "${name}"`)}`,
      ) as Promise<{
        totalHits: number;
      }>;
    await expect.poll(async () => (await runs()).totalHits, SLOW).toBeGreaterThanOrEqual(2);
    await ui.api('PUT', `/api/scheduler/schedules/${name}/pause`);

    const { page } = ui;
    await page.goto(`${ui.url}/schedules`);
    await page
      .locator(`tr[data-schedule="${name}"]`)
      .getByRole('link', { name: `Runs of ${name}` })
      .click();
    await page.waitForURL(new RegExp(`/schedules/executions\\?schedule=${name}$`));
    // The page sets its title once its chunk has loaded and rendered, after the URL changed.
    await expect.poll(() => page.title()).toBe(`${name} – Schedule runs – Conductor`);
    const table = page.getByRole('table', { name: 'Schedule runs' });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe((await runs()).totalHits);
    const scheduled = await rows.locator('td:first-child').allTextContents();
    expect([...scheduled].sort().reverse()).toEqual(scheduled);
    const first = await rows.first().getByRole('cell').allTextContents();
    expect(first[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.000$/);
    expect(first.slice(3, 5)).toEqual([name, workflow]);
    expect(first[6]).toBe('EXECUTED');
    await ui.shot('schedule-runs');

    // The boxes show the filter in the URL, which a click changes a moment later: a click and a
    // wait for the URL, not check()/uncheck(), which look at the box at once.
    await page.getByRole('checkbox', { name: 'FAILED' }).click();
    await page.waitForURL(/state=FAILED/);
    await expect.poll(() => page.getByText('No runs recorded for these filters.').count(), SLOW).toBe(1);
    await page.getByRole('checkbox', { name: 'FAILED' }).click();
    await page.waitForURL((url) => !url.search.includes('state=FAILED'));
    await rows.first().getByRole('cell').nth(5).getByRole('link').click();
    await page.waitForURL(/\/executions\/[^/]+$/);
    await expect.poll(() => page.getByTestId('run-status').textContent(), SLOW).toBe('RUNNING');
  });
});
