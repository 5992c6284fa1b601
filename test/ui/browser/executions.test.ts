// The executions pages in a real browser: a failed run found through the list, its diagram
// coloured by status, its failed task's details and logs, and a confirmed retry; pause, resume and terminate from
// the execution view; and the Run Workflow form, which refuses input that is not JSON.
import { describe, expect, it } from 'vitest';
import { fork, uniqueName, worker } from '../../helpers/fixtures.ts';
import { useBrowser } from '../browser.ts';

/** Runs and pages settle within this on a loaded two-core machine. */
const SLOW = { timeout: 10_000 };

interface Run {
  status: string;
  reasonForIncompletion?: string;
  input: Record<string, unknown>;
  correlationId?: string;
  tasks: { referenceTaskName: string; status: string; taskId: string }[];
}

describe('the executions pages', () => {
  const ui = useBrowser();
  const run = (id: string) => ui.api('GET', `/api/workflow/${id}?includeTasks=true`) as Promise<Run>;

  /** Registers a definition whose single worker task fails for good at once, and starts it. */
  async function failedRun(): Promise<{ name: string; id: string }> {
    const name = uniqueName('ui_exec');
    await ui.api('POST', '/api/metadata/workflow', {
      name,
      version: 1,
      tasks: [
        worker(`${name}_prepare`, {
          taskReferenceName: 'prepare',
          type: 'INLINE',
          inputParameters: { evaluatorType: 'javascript', expression: '1' },
        }),
        fork('split', [
          [worker(`${name}_work`, { taskReferenceName: 'work' })],
          [
            worker(`${name}_side`, {
              taskReferenceName: 'side',
              type: 'INLINE',
              inputParameters: { evaluatorType: 'javascript', expression: '2' },
            }),
          ],
        ]),
        { name: 'join', taskReferenceName: 'join', type: 'JOIN', joinOn: ['work', 'side'] },
      ],
    });
    const id = String(await ui.api('POST', `/api/workflow/${name}`, { order: 7 })).trim();
    await expect
      .poll(async () => (await run(id)).tasks.some((t) => t.referenceTaskName === 'work'), SLOW)
      .toBe(true);
    const task = (await run(id)).tasks.find((t) => t.referenceTaskName === 'work');
    await ui.api('POST', `/api/tasks/${task?.taskId}/log`, 'charging the card');
    await ui.api('POST', '/api/tasks', {
      workflowInstanceId: id,
      taskId: task?.taskId,
      status: 'FAILED',
      reasonForIncompletion: 'the payment service said no',
    });
    await expect.poll(async () => (await run(id)).status, SLOW).toBe('FAILED');
    return { name, id };
  }

  it('finds a failed run through the list, shows its diagram by status, and retries it', async () => {
    const { name, id } = await failedRun();
    const { page } = ui;
    await page.goto(`${ui.url}/executions`);
    await page.getByLabel('Workflow type').fill(name);
    await page.getByRole('checkbox', { name: 'FAILED' }).check();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/status=FAILED/);
    const table = page.getByRole('table', { name: 'Executions' });
    await expect.poll(() => table.getByRole('row').count(), SLOW).toBe(2);
    await table.getByRole('link', { name: id }).click();
    await page.waitForURL(new RegExp(`/executions/${id}$`));

    await expect.poll(() => page.getByTestId('run-status').textContent(), SLOW).toBe('FAILED');
    const diagram = page.getByRole('figure', { name: 'Workflow diagram' });
    await diagram.waitFor();
    expect(await page.locator('[data-ref="work"]').getAttribute('data-status')).toBe('FAILED');
    expect(await page.locator('[data-ref="prepare"]').getAttribute('data-status')).toBe('COMPLETED');
    expect(await page.locator('[data-ref="join"]').getAttribute('data-status')).not.toBe('COMPLETED');
    await page.locator('[data-ref="work"]').click();
    const details = page.getByRole('complementary', { name: 'Task work' });
    await expect.poll(() => details.textContent(), SLOW).toContain('the payment service said no');
    await details.getByRole('tab', { name: 'Logs' }).click();
    await expect.poll(() => details.textContent(), SLOW).toContain('charging the card');
    await ui.shot('executions-failed-run');

    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('dialog', { name: 'Retry the run' }).getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.getByTestId('run-status').textContent(), SLOW).toBe('RUNNING');
    const after = await run(id);
    expect(after.status).toBe('RUNNING');
    expect(after.tasks.filter((t) => t.referenceTaskName === 'work').map((t) => t.status)).toEqual([
      'FAILED',
      'SCHEDULED',
    ]);
    expect(await page.locator('[data-ref="work"]').getAttribute('data-status')).toBe('SCHEDULED');
    await ui.shot('executions-retried');
  });

  it('pauses, resumes and terminates a run from its page, with the reason asked for', async () => {
    const name = uniqueName('ui_ops');
    await ui.api('POST', '/api/metadata/workflow', { name, version: 1, tasks: [worker(`${name}_w`)] });
    const id = String(await ui.api('POST', `/api/workflow/${name}`, {})).trim();
    const { page } = ui;
    await page.goto(`${ui.url}/executions/${id}`);
    const status = page.getByTestId('run-status');
    await expect.poll(() => status.textContent(), SLOW).toBe('RUNNING');
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => status.textContent(), SLOW).toBe('PAUSED');
    expect((await run(id)).status).toBe('PAUSED');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => status.textContent(), SLOW).toBe('RUNNING');
    await page.getByRole('button', { name: 'Terminate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Terminate the run' });
    await dialog.getByLabel('Reason').fill('stopped from the UI');
    await dialog.getByRole('button', { name: 'Terminate' }).click();
    await expect.poll(() => status.textContent(), SLOW).toBe('TERMINATED');
    const ended = await run(id);
    expect(ended.status).toBe('TERMINATED');
    expect(ended.reasonForIncompletion).toContain('stopped from the UI');
    // A terminal run offers retry, restart and rerun; not pause.
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Rerun' }).count()).toBe(1);
    await ui.shot('executions-terminated');
  });

  it('shows an unknown execution as the service’s 404 message', async () => {
    await ui.page.goto(`${ui.url}/executions/no-such-run`);
    await expect.poll(() => ui.page.getByRole('alert').textContent(), SLOW).toContain('no-such-run');
    await ui.shot('executions-unknown');
  });

  it('starts a run from the Run Workflow form, refusing input that is not JSON', async () => {
    const name = uniqueName('ui_run');
    await ui.api('POST', '/api/metadata/workflow', { name, version: 1, tasks: [worker(`${name}_w`)] });
    const { page } = ui;
    await page.goto(`${ui.url}/executions`);
    await page.getByRole('button', { name: 'Run Workflow' }).click();
    await page.getByLabel('Workflow name').fill(name);
    const input = page.getByLabel('Input (JSON object)');
    await input.fill('{"customer": 42,}');
    await expect.poll(() => page.getByRole('alert').textContent(), SLOW).toMatch(/Not valid JSON at line 1/);
    expect(await page.getByRole('button', { name: 'Run', exact: true }).isDisabled()).toBe(true);
    await input.fill('{"customer": 42}');
    await page.getByLabel('Correlation id').fill('ui-form-1');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(/\/executions\/(?!run)[^/]+$/);
    const id = decodeURIComponent(page.url().split('/').at(-1) ?? '');
    const started = await run(id);
    expect(started.input).toEqual({ customer: 42 });
    expect(started.correlationId).toBe('ui-form-1');
    await expect.poll(() => page.getByTestId('run-status').textContent(), SLOW).toBe('RUNNING');
    await ui.shot('executions-run-form');
  });
});
