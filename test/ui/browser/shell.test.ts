// The UI shell in a real browser: served at `/` beside `/api`, client routes survive a reload,
// and the API is never shadowed by the UI.
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';

describe('the management UI shell', () => {
  const ui = useBrowser();

  it('opens at / on the workflow definitions, with Definitions, Executions, Schedules and Monitor in the navigation', async () => {
    const { page } = ui;
    await page.goto(ui.url);
    await page.waitForURL(/\/definitions\/workflows$/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = await nav.getByRole('link').allTextContents();
    expect(links).toEqual([
      'Workflows',
      'Tasks',
      'Event handlers',
      'Schemas',
      'Executions',
      'Schedules',
      'Event monitor',
      'Queue monitor',
    ]);
    await expect.poll(() => nav.textContent()).toContain('Definitions');
    await expect.poll(() => nav.textContent()).toContain('Monitor');
    await ui.shot('shell-home');
  });

  it('serves a client route on reload (SPA fallback) and navigates from the sidebar', async () => {
    const { page } = ui;
    await page.goto(`${ui.url}/schemas`);
    await page.getByRole('heading', { name: 'Schemas', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Executions' }).click();
    await page.waitForURL(/\/executions$/);
    await page.getByRole('heading', { name: 'Executions', level: 1 }).waitFor();
    await ui.shot('shell-navigation');
  });

  it('has a favicon (no failed request on any page) and a title per page', async () => {
    const { page } = ui;
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
    const titles = new Map<string, string>();
    for (const [path, heading] of [
      ['/definitions/workflows', 'Workflow definitions'],
      ['/definitions/tasks', 'Task definitions'],
      ['/schemas', 'Schemas'],
      ['/executions', 'Executions'],
      ['/schedules', 'Schedules'],
    ] as const) {
      await page.goto(`${ui.url}${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await expect.poll(() => page.title()).toBe(`${heading} – Conductor`);
      titles.set(path, await page.title());
    }
    expect(new Set(titles.values()).size).toBe(titles.size);
    expect(await page.locator('link[rel="icon"]').count()).toBe(1);
    expect(failed).toEqual([]);
    await ui.shot('shell-titles');
  });

  it('makes the page actions buttons and navigation links', async () => {
    const { page } = ui;
    for (const [path, action] of [
      ['/executions', 'Run Workflow'],
      ['/definitions/workflows', 'New workflow definition'],
      ['/definitions/tasks', 'New task definition'],
      ['/schemas', 'New schema'],
      ['/schedules', 'New schedule'],
    ] as const) {
      await page.goto(`${ui.url}${path}`);
      await page.getByRole('button', { name: action }).waitFor();
      expect({ path, links: await page.getByRole('link', { name: action }).count() }).toEqual({
        path,
        links: 0,
      });
    }
    await page.goto(`${ui.url}/executions`);
    await page.getByRole('button', { name: 'Run Workflow' }).press('Space');
    await page.waitForURL(/\/executions\/run$/);
    await ui.shot('shell-action-buttons');
  });

  it('leaves /api to the API: an unknown API path is the JSON 404, not the UI', async () => {
    const api = await fetch(`${ui.url}/api/no-such-route`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
    expect(((await api.json()) as { status: number }).status).toBe(404);
    const health = await fetch(`${ui.url}/health`);
    expect(health.headers.get('content-type')).toContain('application/json');
    const page = await fetch(`${ui.url}/definitions/tasks`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root">');
    const missingAsset = await fetch(`${ui.url}/assets/nothing.js`);
    expect(missingAsset.status).toBe(404);
    await ui.page.goto(`${ui.url}/api/version`);
    await ui.shot('shell-api-not-shadowed');
  });
});
