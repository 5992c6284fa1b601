// The definition editors in a real browser: a workflow definition edited through the forms (and
// its JSON kept in step) and saved; the four schema pickers (Workflow Properties, Simple Task,
// Yield Task, Task Definition) reading the registry by name then version, with an unregistered
// schema flagged on the first three and not on the Task Definition form.
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';
import { editorText, setEditorText } from '../editor.ts';

interface Def {
  name: string;
  version: number;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  tasks: {
    name: string;
    taskReferenceName: string;
    type: string;
    inputParameters: unknown;
    taskDefinition?: Record<string, unknown>;
  }[];
}

const DEF_JSON = 'Workflow definition JSON';

describe('the definition editors', () => {
  const ui = useBrowser();
  const schema = (name: string, version = 1) =>
    ui.api('POST', '/api/schema', { name, version, type: 'JSON', data: { type: 'object' } });
  const def = async (name: string) => (await ui.api('GET', `/api/metadata/workflow/${name}`)) as Def;
  const openWorkflow = async (name: string) => {
    await ui.page.goto(`${ui.url}/definitions/workflows/edit/${name}/1`);
    await ui.page.getByRole('group', { name: 'Workflow Properties' }).waitFor();
    await ui.page.getByLabel(DEF_JSON, { exact: true }).waitFor();
  };
  const saveWorkflow = async () => {
    await ui.page.getByRole('button', { name: 'Save', exact: true }).click();
    await ui.page
      .getByRole('status')
      .filter({ hasText: /^Saved / })
      .waitFor();
  };

  it('creates a workflow definition through the forms, with the JSON kept in step, and saves it', async () => {
    const { page } = ui;
    await page.goto(`${ui.url}/definitions/workflows`);
    await page.getByRole('button', { name: 'New workflow definition' }).click();
    const properties = page.getByRole('group', { name: 'Workflow Properties' });
    await properties.getByLabel('Workflow name').fill('greeting');
    await properties.getByLabel('Description').fill('Says hello');
    await page.getByRole('button', { name: 'Add Simple task' }).click();
    const simple = page.getByRole('group', { name: 'Simple Task' });
    await simple.getByLabel('Task name').fill('say_hello');
    await simple.getByLabel('Reference name').fill('hello');
    await simple.getByLabel('Input parameters').fill('{"who": "Ada"}');
    await expect
      .poll(async () => JSON.parse(await editorText(page, DEF_JSON)).tasks[0])
      .toMatchObject({
        name: 'say_hello',
        taskReferenceName: 'hello',
        type: 'SIMPLE',
        inputParameters: { who: 'Ada' },
      });
    // And the other way: JSON typed in the editor updates the forms.
    const json = JSON.parse(await editorText(page, DEF_JSON));
    await setEditorText(
      page,
      JSON.stringify({ ...json, description: 'Says hello, from JSON' }, null, 2),
      DEF_JSON,
    );
    await expect.poll(() => properties.getByLabel('Description').inputValue()).toBe('Says hello, from JSON');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/definitions\/workflows\/edit\/greeting\/1$/);
    const stored = await def('greeting');
    expect(stored.description).toBe('Says hello, from JSON');
    expect(stored.tasks.map((t) => [t.name, t.taskReferenceName, t.type, t.inputParameters])).toEqual([
      ['say_hello', 'hello', 'SIMPLE', { who: 'Ada' }],
    ]);
    await page.goto(`${ui.url}/definitions/workflows`);
    await page.getByRole('link', { name: 'greeting' }).waitFor();
    await ui.shot('definitions-workflow-created');
  });

  it('edits an existing definition in the forms and saves it in place', async () => {
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'billing',
      version: 1,
      tasks: [{ name: 'charge', taskReferenceName: 'charge', type: 'SIMPLE' }],
    });
    const { page } = ui;
    await openWorkflow('billing');
    await page.getByRole('group', { name: 'Workflow Properties' }).getByLabel('Timeout (s)').fill('120');
    await page.getByRole('group', { name: 'Simple Task' }).getByLabel('Optional').check();
    await saveWorkflow();
    const stored = (await def('billing')) as Def & { timeoutSeconds: number; tasks: { optional: boolean }[] };
    expect(stored.timeoutSeconds).toBe(120);
    expect(stored.tasks[0]?.optional).toBe(true);
    await ui.shot('definitions-workflow-edited');
  });

  it('picks the workflow input schema by name then version, and flags one that is not registered', async () => {
    await schema('order_in');
    await schema('order_in', 2);
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'orders',
      version: 1,
      inputSchema: { name: 'ghost_schema' },
      tasks: [{ name: 'take', taskReferenceName: 'take', type: 'SIMPLE' }],
    });
    const { page } = ui;
    await openWorkflow('orders');
    const properties = page.getByRole('group', { name: 'Workflow Properties' });
    const flag = properties.getByRole('status', { name: /Workflow input schema/ });
    expect(await flag.textContent()).toContain('Schema ghost_schema is not registered');
    await properties.getByLabel('Workflow input schema', { exact: true }).selectOption('order_in');
    expect(
      await properties.getByLabel('Workflow input schema version').locator('option').allTextContents(),
    ).toEqual(['latest', '2', '1']);
    await properties.getByLabel('Workflow input schema version').selectOption('1');
    await flag.waitFor({ state: 'detached' });
    await properties.getByLabel('Workflow output schema', { exact: true }).selectOption('order_in');
    await saveWorkflow();
    const stored = await def('orders');
    expect(stored.inputSchema).toEqual({ name: 'order_in', version: 1 });
    expect(stored.outputSchema).toEqual({ name: 'order_in' });
    await ui.shot('definitions-picker-workflow-properties');
  });

  it('picks a Simple Task schema and flags an unregistered one', async () => {
    await schema('parcel');
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'shipping',
      version: 1,
      tasks: [
        {
          name: 'ship',
          taskReferenceName: 'ship',
          type: 'SIMPLE',
          taskDefinition: { name: 'ship', outputSchema: { name: 'parcel', version: 7 } },
        },
      ],
    });
    const { page } = ui;
    await openWorkflow('shipping');
    const simple = page.getByRole('group', { name: 'Simple Task' });
    const flag = simple.getByRole('status', { name: /Task output schema/ });
    expect(await flag.textContent()).toContain('Schema parcel has no version 7');
    await simple.getByLabel('Task output schema version').selectOption('1');
    await flag.waitFor({ state: 'detached' });
    await simple.getByLabel('Task input schema', { exact: true }).selectOption('parcel');
    expect(await simple.getByRole('status').count()).toBe(0);
    await saveWorkflow();
    const task = (await def('shipping')).tasks[0];
    expect(task?.taskDefinition?.inputSchema).toEqual({ name: 'parcel' });
    expect(task?.taskDefinition?.outputSchema).toEqual({ name: 'parcel', version: 1 });
    await ui.shot('definitions-picker-simple-task');
  });

  it('picks a Yield Task schema and flags an unregistered one', async () => {
    await schema('approval');
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'approvals',
      version: 1,
      tasks: [
        {
          name: 'wait_approval',
          taskReferenceName: 'wait_approval',
          type: 'YIELD',
          taskDefinition: { name: 'wait_approval', inputSchema: { name: 'missing_approval' } },
        },
      ],
    });
    const { page } = ui;
    await openWorkflow('approvals');
    const yieldForm = page.getByRole('group', { name: 'Yield Task' });
    const flag = yieldForm.getByRole('status', { name: /Task input schema/ });
    expect(await flag.textContent()).toContain('Schema missing_approval is not registered');
    await yieldForm.getByLabel('Task input schema', { exact: true }).selectOption('approval');
    await flag.waitFor({ state: 'detached' });
    await saveWorkflow();
    expect((await def('approvals')).tasks[0]?.taskDefinition?.inputSchema).toEqual({ name: 'approval' });
    await ui.shot('definitions-picker-yield-task');
  });

  it('edits a task of another type as JSON in place', async () => {
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'pause_a_bit',
      version: 1,
      tasks: [
        { name: 'wait', taskReferenceName: 'wait_a_bit', type: 'WAIT', inputParameters: { duration: '1 s' } },
      ],
    });
    const { page } = ui;
    await openWorkflow('pause_a_bit');
    await page.getByRole('group', { name: 'WAIT task' }).getByLabel('Task JSON', { exact: true }).waitFor();
    await setEditorText(
      page,
      JSON.stringify({
        name: 'wait',
        taskReferenceName: 'wait_a_bit',
        type: 'WAIT',
        inputParameters: { duration: '5 s' },
      }),
      'Task JSON',
    );
    await expect
      .poll(async () => JSON.parse(await editorText(page, DEF_JSON)).tasks[0].inputParameters)
      .toEqual({
        duration: '5 s',
      });
    await saveWorkflow();
    expect((await def('pause_a_bit')).tasks[0]?.inputParameters).toEqual({ duration: '5 s' });
    await ui.shot('definitions-other-task-json');
  });

  it('picks Task Definition schemas without flagging an unregistered one', async () => {
    await schema('label');
    await ui.api('POST', '/api/metadata/taskdefs', [
      { name: 'print_label', retryCount: 1, inputSchema: { name: 'not_in_registry' } },
    ]);
    const { page } = ui;
    await page.goto(`${ui.url}/definitions/tasks`);
    await page.getByRole('link', { name: 'print_label' }).click();
    const form = page.getByRole('group', { name: 'Task Definition' });
    const input = form.getByLabel('Input schema', { exact: true });
    await input.waitFor();
    expect(await input.inputValue()).toBe('not_in_registry');
    expect(await form.getByRole('status').count()).toBe(0);
    expect(await form.getByText(/not registered/).count()).toBe(0);
    await form.getByLabel('Output schema', { exact: true }).selectOption('label');
    await form.getByLabel('Output schema version').selectOption('1');
    await form.getByLabel('Retry count').fill('5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved task definition print_label' }).waitFor();
    const stored = (await ui.api('GET', '/api/metadata/taskdefs/print_label')) as Record<string, unknown>;
    expect(stored).toMatchObject({
      retryCount: 5,
      inputSchema: { name: 'not_in_registry' },
      outputSchema: { name: 'label', version: 1 },
    });
    await ui.shot('definitions-picker-task-definition');
  });

  it('shows a save refused by the server in words', async () => {
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'taken',
      version: 1,
      tasks: [{ name: 'a', taskReferenceName: 'a', type: 'SIMPLE' }],
    });
    const { page } = ui;
    await page.goto(`${ui.url}/definitions/workflows/new`);
    await page.getByRole('group', { name: 'Workflow Properties' }).getByLabel('Workflow name').fill('taken');
    await page.getByRole('button', { name: 'Add Simple task' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/taken/);
    await ui.shot('definitions-api-error');
  });
});
