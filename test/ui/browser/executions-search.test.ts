// The executions search in a real browser: several statuses at once, a workflow type typed in part
// (the matching registered types named under the field), sorting by a column header through the
// search API's `sort`, the duration column, and an invalid search that replaces the old results
// with one message. The task definitions list filtered by name.
import { describe, expect, it } from 'vitest';
import { script, uniqueName, worker } from '../../helpers/fixtures.ts';
import { useBrowser } from '../browser.ts';

/** Runs and pages settle within this on a loaded two-core machine. */
const SLOW = { timeout: 10_000 };

describe('the executions search', () => {
  const ui = useBrowser();
  const status = async (id: string) =>
    ((await ui.api('GET', `/api/workflow/${id}`)) as { status: string }).status;

  /** `{base}_alpha` completes at once; `{base}_beta` runs twice, one of them terminated. */
  async function seed() {
    const base = uniqueName('ui_srch');
    await ui.api('POST', '/api/metadata/workflow', {
      name: `${base}_alpha`,
      version: 1,
      tasks: [script('sum', '1 + 1')],
    });
    await ui.api('POST', '/api/metadata/workflow', {
      name: `${base}_beta`,
      version: 1,
      tasks: [worker(`${base}_work`)],
    });
    const start = async (name: string) => String(await ui.api('POST', `/api/workflow/${name}`, {})).trim();
    const completed = await start(`${base}_alpha`);
    const running = await start(`${base}_beta`);
    const terminated = await start(`${base}_beta`);
    await ui.api('DELETE', `/api/workflow/${terminated}?reason=not%20needed`);
    await expect.poll(() => status(completed), SLOW).toBe('COMPLETED');
    await expect.poll(() => status(terminated), SLOW).toBe('TERMINATED');
    return { base, completed, running, terminated };
  }

  it('finds runs of several statuses by part of the workflow type, sorted by a column header', async () => {
    const { base, completed, running } = await seed();
    const { page } = ui;
    await page.goto(`${ui.url}/executions`);
    await page.getByLabel('Workflow type').fill(base);
    await expect
      .poll(() => page.getByTestId('workflow-type-hint').textContent(), SLOW)
      .toBe(`Matches 2 workflow types: ${base}_alpha, ${base}_beta`);
    const statuses = page.getByRole('group', { name: 'Status' });
    await statuses.getByRole('checkbox', { name: 'RUNNING' }).check();
    await statuses.getByRole('checkbox', { name: 'COMPLETED' }).check();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/status=RUNNING%2CCOMPLETED/);
    const table = page.getByRole('table', { name: 'Executions' });
    const ids = () => table.locator('tbody tr td:first-child').allTextContents();
    await expect.poll(() => ids(), SLOW).toEqual([running, completed]);

    // The Workflow header sorts by type, ascending then descending, through the API's `sort`.
    const header = table.getByRole('columnheader', { name: 'Workflow', exact: true });
    await header.getByRole('button').click();
    await page.waitForURL(/sort=workflowType%3AASC/);
    await expect.poll(() => ids(), SLOW).toEqual([completed, running]);
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    await header.getByRole('button').click();
    await page.waitForURL(/sort=workflowType%3ADESC/);
    await expect.poll(() => ids(), SLOW).toEqual([running, completed]);
    expect(await header.getAttribute('aria-sort')).toBe('descending');

    // The completed run has a measured duration.
    const durationColumn = (await table.locator('thead th').allTextContents()).indexOf('Duration');
    expect(durationColumn).toBeGreaterThan(0);
    const completedRow = table.locator('tbody tr', { hasText: completed });
    expect(await completedRow.locator('td').nth(durationColumn).textContent()).toMatch(
      /^\d+(\.\d+)? (ms|s)$/,
    );
    await ui.shot('executions-search-sorted');
  });

  it('says when no registered workflow type contains what was typed', async () => {
    const { page } = ui;
    await page.goto(`${ui.url}/executions`);
    await page.getByLabel('Workflow type').fill('no_such_type_anywhere');
    await expect
      .poll(() => page.getByTestId('workflow-type-hint').textContent(), SLOW)
      .toBe('No registered workflow type contains “no_such_type_anywhere”; searching for that exact name.');
    await ui.shot('executions-search-no-type');
  });

  it('replaces the old results with one message when the search is invalid', async () => {
    const { base } = await seed();
    const { page } = ui;
    await page.goto(`${ui.url}/executions?workflowType=${base}_beta`);
    const table = page.getByRole('table', { name: 'Executions' });
    await expect.poll(() => table.locator('tbody tr').count(), SLOW).toBe(2);
    await page.getByLabel('Free text').fill('"unclosed');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('alert').count(), SLOW).toBe(1);
    expect(await table.count()).toBe(0);
    const message = (await page.getByRole('alert').textContent()) ?? '';
    expect(message).toContain('unterminated string');
    expect(message.match(/unterminated string/g)).toHaveLength(1);
    await ui.shot('executions-search-invalid');
  });

  it('filters the task definitions by name', async () => {
    const base = uniqueName('ui_tdf');
    await ui.api('POST', '/api/metadata/taskdefs', [
      { name: `${base}_charge` },
      { name: `${base}_refund` },
      { name: `${base}_ship` },
    ]);
    const { page } = ui;
    await page.goto(`${ui.url}/definitions/tasks`);
    const table = page.getByRole('table', { name: 'Task definitions' });
    await table.waitFor();
    await page.getByLabel('Filter by name').fill(`${base}_R`);
    await expect
      .poll(() => table.locator('tbody tr td:first-child').allTextContents(), SLOW)
      .toEqual([`${base}_refund`]);
    await page.getByLabel('Filter by name').fill('nothing_like_this');
    await expect.poll(() => page.getByText('No task definition matches').count(), SLOW).toBe(1);
    await ui.shot('task-defs-filtered');
  });
});
