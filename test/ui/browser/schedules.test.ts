// The schedules pages in a real browser: a schedule paused and resumed from the list, and one
// created in the editor with its next run times previewed and a bad cron expression explained.
import { describe, expect, it } from 'vitest';
import { uniqueName, worker } from '../../helpers/fixtures.ts';
import { useBrowser } from '../browser.ts';

/** Runs and pages settle within this on a loaded two-core machine. */
const SLOW = { timeout: 10_000 };

interface Schedule {
  paused: boolean;
  cronExpression?: string;
  zoneId?: string;
  startWorkflowRequest: { name: string; input?: unknown };
}

describe('the schedules pages', () => {
  const ui = useBrowser();
  const schedule = (name: string) => ui.api('GET', `/api/scheduler/schedules/${name}`) as Promise<Schedule>;

  async function definition(): Promise<string> {
    const name = uniqueName('ui_sched_wf');
    await ui.api('POST', '/api/metadata/workflow', { name, version: 1, tasks: [worker(`${name}_w`)] });
    return name;
  }

  /** A schedule (`fields` and a fresh definition) made over the API, and its row on the opened list. */
  async function listedSchedule(prefix: string, fields: Record<string, unknown>) {
    const workflow = await definition();
    const name = uniqueName(prefix);
    await ui.api('POST', '/api/scheduler/schedules', {
      name,
      ...fields,
      startWorkflowRequest: { name: workflow },
    });
    await ui.page.goto(`${ui.url}/schedules`);
    return { name, row: ui.page.locator(`tr[data-schedule="${name}"]`) };
  }

  it('pauses and resumes a schedule from the list', async () => {
    const { name, row } = await listedSchedule('ui_sched', { cronExpression: '0 0 0 1 1 *' });
    await expect.poll(() => row.textContent(), SLOW).toContain('Active');
    await row.getByRole('button', { name: `Pause ${name}` }).click();
    await expect.poll(() => row.textContent(), SLOW).toContain('Paused');
    expect((await schedule(name)).paused).toBe(true);
    await ui.shot('schedules-paused');
    await row.getByRole('button', { name: `Resume ${name}` }).click();
    await expect.poll(() => row.textContent(), SLOW).toContain('Active');
    expect((await schedule(name)).paused).toBe(false);
    await ui.shot('schedules-resumed');
  });

  it('creates a schedule in the editor, previewing its next runs and explaining a bad cron', async () => {
    const workflow = await definition();
    const name = uniqueName('ui_sched_new');
    const { page } = ui;
    await page.goto(`${ui.url}/schedules`);
    await page.getByRole('button', { name: 'New schedule' }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    const cron = page.getByLabel('Cron expression (seconds first, Spring syntax)');
    await cron.fill('0 0 9 * * MON-FRI');
    const nextRuns = page.getByRole('complementary', { name: 'Next runs' });
    await expect.poll(() => nextRuns.getByRole('listitem').count(), SLOW).toBe(5);
    await cron.fill('not a cron');
    await expect.poll(() => nextRuns.getByRole('alert').count(), SLOW).toBe(1);
    expect(await nextRuns.getByRole('alert').textContent()).toMatch(/cron/i);
    await cron.fill('0 30 6 * * *');
    await expect.poll(() => nextRuns.getByRole('listitem').count(), SLOW).toBe(5);
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Workflow name').fill(workflow);
    await page.getByLabel('Input (JSON object)').fill('{"region": "eu"}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`/schedules/edit/${name}$`));
    await page.getByRole('status').waitFor();
    const saved = await schedule(name);
    expect(saved).toMatchObject({
      paused: false,
      cronExpression: '0 30 6 * * *',
      zoneId: 'Europe/Berlin',
      startWorkflowRequest: { name: workflow, input: { region: 'eu' } },
    });
    await ui.shot('schedules-editor');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/schedules$/);
    await expect(schedule(name)).rejects.toThrow(/404/);
  });

  it('replaces the preview with one clear message when the cron expression turns invalid', async () => {
    const { page } = ui;
    await page.goto(`${ui.url}/schedules/new`);
    const cron = page.getByLabel('Cron expression (seconds first, Spring syntax)');
    await cron.fill('0 0 9 * * MON-FRI');
    const nextRuns = page.getByRole('complementary', { name: 'Next runs' });
    await expect.poll(() => nextRuns.getByRole('listitem').count(), SLOW).toBe(5);
    await cron.fill('not a cron');
    await expect.poll(() => nextRuns.getByRole('alert').count(), SLOW).toBe(1);
    // The old expression's run times are gone, and the reason is said once.
    expect(await nextRuns.getByRole('listitem').count()).toBe(0);
    const message = (await nextRuns.getByRole('alert').textContent()) ?? '';
    expect(message.match(/is not a valid cron expression/g)).toHaveLength(1);
    await ui.shot('schedules-invalid-cron');
  });

  it('writes run times year-first to the millisecond, with the zone', async () => {
    const { name, row } = await listedSchedule('ui_sched_zone', {
      cronExpression: '0 30 6 * * *',
      zoneId: 'Asia/Tokyo',
    });
    const { page } = ui;
    await expect.poll(() => row.textContent(), SLOW).toContain('Active');
    const nextRun = row.locator('td').nth(5);
    expect(await nextRun.textContent()).toMatch(/^\d{4}-\d{2}-\d{2} 06:30:00\.000 GMT\+9$/);
    await row.getByRole('link', { name, exact: true }).click();
    const nextRuns = page.getByRole('complementary', { name: 'Next runs' });
    await expect.poll(() => nextRuns.getByRole('listitem').count(), SLOW).toBe(5);
    for (const item of await nextRuns.getByRole('listitem').allTextContents()) {
      expect(item).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:30:00\.000 GMT\+9$/);
    }
    await ui.shot('schedules-zone-times');
  });
});
