// A list that cannot be loaded says so and shows nothing else: with the service gone, coming back
// to a list seen earlier in the session shows the error, not the rows remembered from before
// (which would pass for the service's current state).
import { describe, expect, it } from 'vitest';
import { DIST_DIR } from '../../../ui/build.ts';
import { startTestServer } from '../../helpers/server.ts';
import { useBrowser } from '../browser.ts';

const SLOW = { timeout: 10_000 };

describe('a list that fails to load', () => {
  const ui = useBrowser();

  it('shows the error without the rows seen before, on every list', async () => {
    // A server of this test's own, stopped halfway (the harness's serves the other tests).
    const own = await startTestServer({ 'service.ui.dir': DIST_DIR }, { transport: 'node' });
    const post = (path: string, body: unknown) =>
      fetch(`${own.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post('/api/metadata/taskdefs', [{ name: 'remembered_task' }]);
    await post('/api/metadata/workflow', {
      name: 'remembered_workflow',
      version: 1,
      tasks: [{ name: 'remembered_task', taskReferenceName: 'a', type: 'SIMPLE' }],
    });
    await post('/api/schema', { name: 'remembered_schema', version: 1, type: 'JSON', data: {} });
    await post('/api/scheduler/schedules', {
      name: 'remembered_schedule',
      cronExpression: '0 0 * * * *',
      startWorkflowRequest: { name: 'remembered_workflow' },
    });
    const lists = [
      ['Workflows', 'Workflow definitions', 'remembered_workflow'],
      ['Tasks', 'Task definitions', 'remembered_task'],
      ['Schemas', 'Schemas', 'remembered_schema'],
      ['Schedules', 'Schedules', 'remembered_schedule'],
    ] as const;
    const { page } = ui;
    await page.goto(`${own.url}/definitions/workflows`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [link, table, row] of lists) {
      await nav.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('table', { name: table }).getByText(row).waitFor();
    }
    await own.close();
    for (const [link, table] of lists) {
      await nav.getByRole('link', { name: link, exact: true }).click();
      // The list's own page (the one before may stay up until it renders, with its own alert),
      // then its end state: the error, and no table. Rows remembered from before never stay.
      await page.getByRole('heading', { level: 1, name: table, exact: true }).waitFor();
      const state = async () => ({
        link,
        alert: (await page.getByRole('alert').count()) > 0,
        rows: await page.getByRole('table', { name: table }).count(),
      });
      await expect.poll(state, SLOW).toEqual({ link, alert: true, rows: 0 });
    }
    await ui.shot('load-error-no-stale-rows');
  });
});
