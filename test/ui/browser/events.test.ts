// Event handlers and the event monitor in a real browser: a handler created in the editor (bad
// actions refused in the form first), switched off from the list and deleted after confirmation;
// and an event posted to the service seen in the event monitor with the run its handler started.
import { describe, expect, it } from 'vitest';
import { uniqueName } from '../../helpers/fixtures.ts';
import { useBrowser } from '../browser.ts';

/** Runs and pages settle within this on a loaded two-core machine. */
const SLOW = { timeout: 15_000 };

interface Handler {
  name: string;
  event: string;
  active?: boolean;
  actions: { action: string }[];
}

describe('the event handler and event monitor screens', () => {
  const ui = useBrowser();
  const handler = (name: string) => ui.api('GET', `/api/event/handler/${name}`) as Promise<Handler>;

  async function workflow(): Promise<string> {
    const name = uniqueName('ui_evt_wf');
    await ui.api('POST', '/api/metadata/workflow', {
      name,
      version: 1,
      tasks: [{ name: 'hold', taskReferenceName: 'hold', type: 'WAIT' }],
    });
    return name;
  }

  it('creates a handler in the editor, switches it off from the list and deletes it', async () => {
    const started = await workflow();
    const name = uniqueName('ui_evt');
    const { page } = ui;
    await page.goto(`${ui.url}/definitions/event-handlers`);
    await page.getByRole('heading', { name: 'Event handlers', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New event handler' }).click();
    await page.waitForURL(/\/definitions\/event-handlers\/new$/);
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel(/^Event \(type:queue/).fill(`conductor:${name}`);
    const actions = page.getByLabel(/^Actions \(JSON array/);
    await actions.fill('[{"action": "launch_rocket"}]');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), SLOW)
      .toContain('has action "launch_rocket"');
    await actions.fill(JSON.stringify([{ action: 'start_workflow', start_workflow: { name: started } }]));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`/definitions/event-handlers/edit/${name}$`));
    await page.getByRole('status').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(name);
    expect(await handler(name)).toMatchObject({
      name,
      event: `conductor:${name}`,
      active: true,
      actions: [{ action: 'start_workflow', start_workflow: { name: started } }],
    });
    await ui.shot('event-handler-editor');

    await page.getByRole('link', { name: 'Back to event handlers' }).click();
    await page.getByLabel('Filter by name or event').fill(name);
    const row = page.locator(`tr[data-handler="${name}"]`);
    await expect.poll(() => row.textContent(), SLOW).toContain('Active');
    await row.getByRole('checkbox', { name: `Active: ${name}` }).click();
    await expect.poll(() => row.textContent(), SLOW).toContain('Inactive');
    expect((await handler(name)).active).toBe(false);
    await ui.shot('event-handlers-list');

    await row.getByRole('link', { name }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/definitions\/event-handlers$/);
    await expect(handler(name)).rejects.toThrow(/404/);
  });

  it('shows an event’s handling in the event monitor, with the run it started', async () => {
    const started = await workflow();
    const name = uniqueName('ui_evt_mon');
    const event = `webhook:${name}`;
    await ui.api('POST', '/api/event', {
      name,
      event,
      active: true,
      actions: [{ action: 'start_workflow', start_workflow: { name: started, input: { order: 7 } } }],
    });
    await ui.api('POST', '/api/event/handleIncomingEvent', { event, order: 7 });
    await expect
      .poll(async () => {
        const list = (await ui.api('GET', `/api/event/execution/${name}`)) as { status: string }[];
        return list.map((e) => e.status);
      }, SLOW)
      .toEqual(['COMPLETED']);

    const { page } = ui;
    await page.goto(`${ui.url}/event-monitor`);
    const handlers = page.getByRole('table', { name: 'Event handlers and their messages' });
    const row = handlers.getByRole('row', { name: new RegExp(name) });
    await expect
      .poll(() => row.getByRole('cell').allTextContents(), SLOW)
      .toEqual([name, event, 'Active', '1', '1']);
    await row.getByRole('link', { name }).click();
    await page.waitForURL(new RegExp(`/event-monitor/${name}$`));
    // The page sets its title once its chunk has loaded and rendered, after the URL changed.
    await expect.poll(() => page.title()).toBe(`${name} – Event executions – Conductor`);
    const executions = page.getByRole('table', { name: 'Event executions' });
    await executions.waitFor();
    const cells = executions.locator('tbody tr').first().getByRole('cell');
    expect(await cells.nth(1).textContent()).toBe('COMPLETED');
    expect(await cells.nth(2).textContent()).toBe('start_workflow');
    expect(await cells.nth(0).textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    await page.getByLabel('Created').selectOption({ label: 'Last 5 minutes' });
    await page.waitForURL(/within=300000/);
    await expect.poll(() => executions.locator('tbody tr').count(), SLOW).toBe(1);
    await executions.getByText('Show').click();
    expect(await executions.locator('pre').textContent()).toContain('"order": 7');
    await ui.shot('event-monitor-executions');
    await cells.nth(4).getByRole('link').click();
    await page.waitForURL(/\/executions\/[^/]+$/);
    await expect.poll(() => page.getByTestId('run-status').textContent(), SLOW).toBe('RUNNING');
  });
});
