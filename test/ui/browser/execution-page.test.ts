// One execution's page in a real browser, against the real local server with runs seeded through
// the API: Retry asks first (as restart and terminate do); choosing a task covers none of the task
// table, and at 800 px nothing overflows the page; the page refreshes a running run by itself and
// stops when it ends; the timeline and the durations; the links between a SUB_WORKFLOW task, its
// child run and back; DO_WHILE iterations in the table (filtered by iteration) and the diagram; a
// long diagram fitted and zoomed; and the task panel's facts and tabs.
import { describe, expect, it } from 'vitest';
import { inline, loop, ref, script, uniqueName, worker } from '../../helpers/fixtures.ts';
import { useBrowser } from '../browser.ts';

/** Runs and pages settle within this on a loaded two-core machine. */
const SLOW = { timeout: 10_000 };

interface Task {
  referenceTaskName: string;
  status: string;
  taskId: string;
  iteration: number;
  subWorkflowId?: string;
}
interface Run {
  status: string;
  tasks: Task[];
}

describe('the execution page', () => {
  const ui = useBrowser();
  const run = (id: string) => ui.api('GET', `/api/workflow/${id}?includeTasks=true`) as Promise<Run>;

  async function register(tasks: unknown[], prefix = 'ui_page'): Promise<string> {
    const name = uniqueName(prefix);
    await ui.api('POST', '/api/metadata/workflow', { name, version: 1, tasks });
    return name;
  }
  const start = async (name: string, input: unknown = {}) =>
    String(await ui.api('POST', `/api/workflow/${name}`, input)).trim();

  /** Polls the worker task `type` as `workerId` and reports it with `status`. */
  async function work(type: string, workerId: string, status: string, extra: object = {}) {
    let task: { taskId: string; workflowInstanceId: string } | undefined;
    await expect
      .poll(async () => {
        task = (await ui.api('GET', `/api/tasks/poll/${type}?workerid=${workerId}`)) as typeof task;
        return task?.taskId !== undefined;
      }, SLOW)
      .toBe(true);
    await ui.api('POST', '/api/tasks', {
      workflowInstanceId: task?.workflowInstanceId,
      taskId: task?.taskId,
      status,
      ...extra,
    });
    return task as { taskId: string; workflowInstanceId: string };
  }

  /** A run whose one worker task failed for good. */
  async function failedRun(): Promise<string> {
    const type = uniqueName('ui_fail_w');
    const id = await start(
      await register([inline('prepare', { expression: '1' }), worker(type, { taskReferenceName: 'work' })]),
    );
    await work(type, 'ui-worker', 'FAILED', { reasonForIncompletion: 'the payment service said no' });
    await expect.poll(async () => (await run(id)).status, SLOW).toBe('FAILED');
    return id;
  }

  it('asks before retrying a run, and a cancelled retry leaves the run as it was', async () => {
    const id = await failedRun();
    const { page } = ui;
    await page.goto(`${ui.url}/executions/${id}`);
    await expect.poll(() => page.getByTestId('run-status').textContent(), SLOW).toBe('FAILED');
    await page.getByRole('button', { name: 'Retry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Retry the run' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('failed task');
    await ui.shot('execution-page-retry-asks');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await run(id)).status).toBe('FAILED');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('dialog', { name: 'Retry the run' }).getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.getByTestId('run-status').textContent(), SLOW).toBe('RUNNING');
    expect((await run(id)).status).toBe('RUNNING');
  });

  it('keeps the whole task table visible when a task is chosen', async () => {
    const id = await failedRun();
    const { page } = ui;
    await page.goto(`${ui.url}/executions/${id}`);
    const table = page.getByRole('table', { name: 'Tasks' });
    await table.getByRole('button', { name: 'work' }).click();
    await page.getByRole('complementary', { name: 'Task work' }).waitFor();
    // Every cell of the chosen row is on screen and nothing covers it.
    const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: 'work' }) });
    await row.scrollIntoViewIfNeeded();
    const cells = await row.getByRole('cell').all();
    expect(cells.length).toBeGreaterThanOrEqual(7);
    for (const cell of cells) {
      const covered = await cell.evaluate((el) => {
        // Both ends of the cell are on screen and nothing covers or clips them.
        const box = el.getBoundingClientRect();
        const y = box.top + box.height / 2;
        const seen = [box.left + 2, box.right - 2].every((x) => {
          const hit = document.elementFromPoint(x, y);
          return x < window.innerWidth && hit !== null && el.contains(hit);
        });
        return seen ? null : el.textContent;
      });
      if (covered !== null) await ui.shot('execution-page-task-chosen-covered');
      expect(covered).toBeNull();
    }
    await ui.shot('execution-page-task-chosen');
  });

  it('fits an 800 px window with a task chosen: the tables scroll inside their box, the page does not', async () => {
    const id = await failedRun();
    const { page } = ui;
    await page.setViewportSize({ width: 800, height: 800 });
    await page.goto(`${ui.url}/executions/${id}`);
    await page.getByRole('table', { name: 'Tasks' }).getByRole('button', { name: 'work' }).click();
    await page.getByRole('complementary', { name: 'Task work' }).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await ui.shot('execution-page-800px');
  });

  it('refreshes a running run by itself, says when it last did, and stops when the run is over', async () => {
    const type = uniqueName('ui_live_w');
    const id = await start(await register([worker(type, { taskReferenceName: 'work' })]));
    const { page } = ui;
    await page.goto(`${ui.url}/executions/${id}`);
    const status = page.getByTestId('run-status');
    await expect.poll(() => status.textContent(), SLOW).toBe('RUNNING');
    const hint = page.getByTestId('refresh-hint');
    await expect.poll(() => hint.textContent(), SLOW).toMatch(/Updated \d\d:\d\d:\d\d/);
    expect(await hint.textContent()).toMatch(/next in \d+ s/);
    await page.getByLabel('Auto-refresh').selectOption('5');
    await work(type, 'ui-live-worker', 'COMPLETED', { outputData: { done: true } });
    // No click: the page finds out within the interval.
    await expect.poll(() => status.textContent(), { timeout: 12_000 }).toBe('COMPLETED');
    await expect.poll(() => hint.textContent(), SLOW).toContain('run is over');
    expect(await page.getByLabel('Auto-refresh').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => hint.textContent(), SLOW).toMatch(/Updated \d\d:\d\d:\d\d/);
    await ui.shot('execution-page-live-refresh');
  });

  it('shows the tasks on a timeline with their durations, and durations in the table', async () => {
    const id = await start(
      await register([
        inline('first', { expression: '1' }),
        { name: 'pause', taskReferenceName: 'pause', type: 'WAIT', inputParameters: { duration: '1s' } },
        inline('last', { expression: '2' }),
      ]),
    );
    await expect.poll(async () => (await run(id)).status, { timeout: 15_000 }).toBe('COMPLETED');
    const { page } = ui;
    await page.goto(`${ui.url}/executions/${id}`);
    const table = page.getByRole('table', { name: 'Tasks' });
    await table.waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toContain('Duration');
    const waitRow = table.getByRole('row').filter({ has: page.getByRole('button', { name: 'pause' }) });
    expect(await waitRow.textContent()).toMatch(/\d(\.\d+)? s/);

    await page.getByRole('tab', { name: 'Timeline' }).click();
    const timeline = page.getByRole('figure', { name: 'Timeline' });
    const bars = timeline.getByRole('button');
    await expect.poll(() => bars.count(), SLOW).toBe(3);
    const wait = timeline.getByRole('button', { name: /^pause/ });
    expect(await wait.getAttribute('aria-label')).toMatch(/pause .*\d(\.\d+)? s/);
    const [firstBox, waitBox, lastBox] = await Promise.all(
      ['first', 'pause', 'last'].map((ref) =>
        timeline.getByRole('button', { name: new RegExp(`^${ref}`) }).boundingBox(),
      ),
    );
    // Later tasks start further right, and the one-second wait is the widest bar.
    expect(waitBox?.x).toBeGreaterThanOrEqual(firstBox?.x ?? Number.POSITIVE_INFINITY);
    expect(lastBox?.x).toBeGreaterThan(waitBox?.x ?? Number.POSITIVE_INFINITY);
    expect(waitBox?.width).toBeGreaterThan(firstBox?.width ?? Number.POSITIVE_INFINITY);
    await wait.click();
    await page.getByRole('complementary', { name: 'Task pause' }).waitFor();
    await ui.shot('execution-page-timeline');
  });

  it('links a SUB_WORKFLOW task to its child run, and the child back to its parent', async () => {
    const childType = uniqueName('ui_child_w');
    const child = await register([worker(childType, { taskReferenceName: 'inner' })], 'ui_child');
    const parentId = await start(
      await register([
        {
          name: child,
          taskReferenceName: 'child',
          type: 'SUB_WORKFLOW',
          subWorkflowParam: { name: child, version: 1 },
        },
      ]),
    );
    let childId = '';
    await expect
      .poll(async () => {
        childId =
          (await run(parentId)).tasks.find((t) => t.referenceTaskName === 'child')?.subWorkflowId ?? '';
        return childId;
      }, SLOW)
      .not.toBe('');
    const { page } = ui;
    await page.goto(`${ui.url}/executions/${parentId}`);
    await page.getByRole('table', { name: 'Tasks' }).getByRole('button', { name: 'child' }).click();
    const panel = page.getByRole('complementary', { name: 'Task child' });
    await panel.getByRole('link', { name: childId }).click();
    await page.waitForURL(new RegExp(`/executions/${childId}$`));
    const parentLink = page.getByRole('link', { name: parentId });
    await parentLink.waitFor();
    expect(await page.locator('.facts').textContent()).toContain('Parent workflow');
    await ui.shot('execution-page-child-run');
    await parentLink.click();
    await page.waitForURL(new RegExp(`/executions/${parentId}$`));
    await page.getByRole('table', { name: 'Tasks' }).getByRole('link', { name: 'child run' }).waitFor();
  });

  it('shows DO_WHILE iterations: numbered in the table, filtered by iteration, counted in the diagram', async () => {
    const id = await start(
      await register([
        loop([script('step', '$.n * 2', { n: ref('loop.output.iteration') })], '$.loop.iteration < 3'),
      ]),
    );
    await expect.poll(async () => (await run(id)).status, SLOW).toBe('COMPLETED');
    const { page } = ui;
    await page.goto(`${ui.url}/executions/${id}`);
    const table = page.getByRole('table', { name: 'Tasks' });
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toContain('Iteration');
    expect(await table.getByRole('button', { name: /^step__\d$/ }).count()).toBe(3);
    await page.getByRole('combobox', { name: /^Iteration/ }).selectOption('2');
    await expect
      .poll(() => table.getByRole('button', { name: /^step__/ }).allTextContents(), SLOW)
      .toEqual(['step__2']);
    expect(await page.locator('[data-ref="loop"]').textContent()).toContain('3 iterations');
    expect(await page.locator('[data-ref="step"]').textContent()).toContain('×3');
    // The panel of a looped task offers its other iterations.
    await table.getByRole('button', { name: 'step__2' }).click();
    const panel = page.getByRole('complementary', { name: 'Task step__2' });
    const attempt = panel.getByLabel('Attempt');
    expect(await attempt.locator('option').count()).toBe(3);
    expect(await panel.textContent()).toMatch(/Iteration\s*2/);
    await ui.shot('execution-page-iterations');
  });

  it('fits a long workflow’s diagram in view and zooms it', async () => {
    const tasks = Array.from({ length: 24 }, (_, i) => inline(`step_${i + 1}`, { expression: String(i) }));
    const id = await start(await register(tasks));
    await expect.poll(async () => (await run(id)).status, SLOW).toBe('COMPLETED');
    const { page } = ui;
    await page.goto(`${ui.url}/executions/${id}`);
    const figure = page.getByRole('figure', { name: 'Workflow diagram' });
    await figure.waitFor();
    const last = page.locator('[data-ref="step_24"]');
    await figure.getByRole('button', { name: 'Fit' }).click();
    const inView = async () => {
      const [box, node] = await Promise.all([
        figure.locator('.diagram-canvas').boundingBox(),
        last.boundingBox(),
      ]);
      return (
        !!box &&
        !!node &&
        node.y >= box.y &&
        node.y + node.height <= box.y + box.height + 1 &&
        node.height > 0
      );
    };
    await expect.poll(inView, SLOW).toBe(true);
    await ui.shot('execution-page-diagram-fit');
    const before = (await last.boundingBox())?.width ?? 0;
    await figure.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await last.boundingBox())?.width ?? 0, SLOW).toBeGreaterThan(before);
  });

  it('shows a task’s worker, polls, times and retries, with Input, Output, Logs and JSON tabs', async () => {
    const type = uniqueName('ui_panel_w');
    const id = await start(
      await register([
        worker(type, {
          taskReferenceName: 'charge',
          inputParameters: { amount: ref('workflow.input.amount') },
        }),
      ]),
      { amount: 12 },
    );
    const polled = await work(type, 'ui-worker-7', 'IN_PROGRESS', { outputData: { half: true } });
    await ui.api('POST', `/api/tasks/${polled.taskId}/log`, 'charging the card');
    const { page } = ui;
    await page.goto(`${ui.url}/executions/${id}`);
    await page.locator('[data-ref="charge"]').click();
    const panel = page.getByRole('complementary', { name: 'Task charge' });
    const summary = await panel.getByRole('tabpanel').textContent();
    for (const fact of [
      'Worker',
      'ui-worker-7',
      'Poll count',
      'Scheduled',
      'Started',
      'Updated',
      'Retry count',
    ]) {
      expect(summary).toContain(fact);
    }
    expect(summary).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}/);
    await panel.getByRole('tab', { name: 'Input' }).click();
    expect(await panel.getByRole('tabpanel').textContent()).toContain('"amount"');
    await panel.getByRole('tab', { name: 'Output' }).click();
    expect(await panel.getByRole('tabpanel').textContent()).toContain('"half": true');
    await panel.getByRole('tab', { name: 'Logs' }).click();
    await expect.poll(() => panel.getByRole('tabpanel').textContent(), SLOW).toContain('charging the card');
    await panel.getByRole('tab', { name: 'JSON' }).click();
    const json = await panel.getByRole('tabpanel').textContent();
    expect(json).toContain(`"taskId": "${polled.taskId}"`);
    expect(json).toContain('"workerId": "ui-worker-7"');
    await ui.shot('execution-page-task-panel');
  });
});
