// The workflow and task definition editors in a real browser, beyond the forms of
// definitions.test.ts: a task schema attached in the workflow editor keeps the registered task
// definition's retry policy (a run's failed task is not retried), a new definition stays on screen
// after its first save and saves again, the diagram selects tasks for editing, tasks inside fork
// branches, switch cases and loops are edited in forms, and Save as new version keeps the old one.
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';
import { editorText } from '../editor.ts';

const SLOW = { timeout: 10_000 };
const DEF_JSON = 'Workflow definition JSON';

interface Task {
  name: string;
  taskReferenceName: string;
  type: string;
  taskDefinition?: Record<string, unknown>;
  forkTasks?: Task[][];
  decisionCases?: Record<string, Task[]>;
  defaultCase?: Task[];
  loopOver?: Task[];
  joinOn?: string[];
  [field: string]: unknown;
}

interface Def {
  name: string;
  version: number;
  description?: string;
  tasks: Task[];
}

interface Run {
  status: string;
  tasks: { referenceTaskName: string; status: string; taskId: string; retryCount: number }[];
}

describe('the definition editors', () => {
  const ui = useBrowser();
  const def = async (name: string, version?: number) =>
    (await ui.api(
      'GET',
      `/api/metadata/workflow/${name}${version === undefined ? '' : `?version=${version}`}`,
    )) as Def;
  const run = (id: string) => ui.api('GET', `/api/workflow/${id}?includeTasks=true`) as Promise<Run>;
  const openWorkflow = async (name: string, version = 1) => {
    await ui.page.goto(`${ui.url}/definitions/workflows/edit/${name}/${version}`);
    await ui.page.getByRole('group', { name: 'Workflow Properties' }).waitFor();
    await ui.page.getByLabel(DEF_JSON, { exact: true }).waitFor();
  };
  const saved = (text: RegExp | string) => ui.page.getByRole('status').filter({ hasText: text }).waitFor();

  it('attaches a task schema without replacing the registered retry policy: a failed task is not retried', async () => {
    await ui.api('POST', '/api/schema', {
      name: 'card',
      version: 1,
      type: 'JSON',
      data: { type: 'object' },
    });
    await ui.api('POST', '/api/metadata/taskdefs', [
      {
        name: 'charge_card',
        retryCount: 0,
        retryDelaySeconds: 1,
        timeoutSeconds: 300,
        responseTimeoutSeconds: 120,
      },
    ]);
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'checkout',
      version: 1,
      tasks: [{ name: 'charge_card', taskReferenceName: 'charge', type: 'SIMPLE' }],
    });
    const { page } = ui;
    await openWorkflow('checkout');
    const simple = page.getByRole('group', { name: 'Simple Task' });
    await simple.getByLabel('Task input schema', { exact: true }).selectOption('card');
    // The form says that the inline definition now stands in for the registered one, and with what.
    const note = simple.getByRole('note', { name: 'Inline task definition' });
    await expect.poll(() => note.textContent()).toContain('in place of the registered task definition');
    expect(await note.textContent()).toContain('no retries');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saved(/^Saved /);
    const id = String(await ui.api('POST', '/api/workflow/checkout', {})).trim();
    const polled = (await ui.api('GET', '/api/tasks/poll/charge_card?workerid=test')) as { taskId: string };
    await ui.api('POST', '/api/tasks', {
      workflowInstanceId: id,
      taskId: polled.taskId,
      status: 'FAILED',
      reasonForIncompletion: 'card declined',
    });
    await expect.poll(async () => (await run(id)).status, SLOW).toBe('FAILED');
    expect((await run(id)).tasks.map((t) => [t.referenceTaskName, t.status])).toEqual([['charge', 'FAILED']]);
    const inline = (await def('checkout')).tasks[0]?.taskDefinition;
    expect(inline).toMatchObject({
      name: 'charge_card',
      inputSchema: { name: 'card' },
      retryCount: 0,
      retryDelaySeconds: 1,
      timeoutSeconds: 300,
      responseTimeoutSeconds: 120,
    });

    await ui.shot('editor-schema-keeps-registered-policy');
  });

  it('flags an inline task definition whose policy differs from the registered one, and copies the registered policy', async () => {
    await ui.api('POST', '/api/metadata/taskdefs', [
      { name: 'send_mail', retryCount: 0, retryDelaySeconds: 5 },
    ]);
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'mailing',
      version: 1,
      tasks: [
        {
          name: 'send_mail',
          taskReferenceName: 'mail',
          type: 'SIMPLE',
          // What the editor used to save: the server fills in 3 retries, 60 s apart.
          taskDefinition: { name: 'send_mail', outputSchema: { name: 'receipt' } },
        },
      ],
    });
    const { page } = ui;
    await openWorkflow('mailing');
    const simple = page.getByRole('group', { name: 'Simple Task' });
    const note = simple.getByRole('note', { name: 'Inline task definition' });
    await expect.poll(() => note.textContent()).toContain('retryCount: 3 here, 0 registered');
    expect(await note.textContent()).toContain('retryDelaySeconds: 60 here, 5 registered');
    await note.getByRole('button', { name: 'Use the registered policy' }).click();
    await expect.poll(() => note.textContent()).not.toContain('here,');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saved(/^Saved /);
    expect((await def('mailing')).tasks[0]?.taskDefinition).toMatchObject({
      retryCount: 0,
      retryDelaySeconds: 5,
      outputSchema: { name: 'receipt' },
    });
    await ui.shot('editor-inline-policy-differs');
  });

  it('keeps a new workflow definition on screen after its first save, and saves it again', async () => {
    const { page } = ui;
    await page.goto(`${ui.url}/definitions/workflows/new`);
    const properties = page.getByRole('group', { name: 'Workflow Properties' });
    await properties.getByLabel('Workflow name').fill('fresh_flow');
    await properties.getByLabel('Description').fill('first words');
    await page.getByRole('button', { name: 'Add Simple task' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/definitions\/workflows\/edit\/fresh_flow\/1$/);
    await page.getByRole('heading', { name: 'Workflow fresh_flow version 1' }).waitFor();
    expect(await properties.getByLabel('Workflow name').inputValue()).toBe('fresh_flow');
    expect(await properties.getByLabel('Description').inputValue()).toBe('first words');
    await properties.getByLabel('Description').fill('second words');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saved('Saved fresh_flow version 1');
    expect((await def('fresh_flow')).description).toBe('second words');
    await ui.shot('editor-new-workflow-saved-twice');
  });

  it('keeps a new task definition on screen after its first save, and saves it again', async () => {
    const { page } = ui;
    await page.goto(`${ui.url}/definitions/tasks/new`);
    const form = page.getByRole('group', { name: 'Task Definition' });
    await form.getByLabel('Name').fill('fresh_task');
    await form.getByLabel('Retry count').fill('1');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/definitions\/tasks\/edit\/fresh_task$/);
    await page.getByRole('heading', { name: 'Task definition fresh_task' }).waitFor();
    expect(await form.getByLabel('Name').inputValue()).toBe('fresh_task');
    expect(await form.getByLabel('Retry count').inputValue()).toBe('1');
    await form.getByLabel('Retry count').fill('2');
    await page.getByRole('button', { name: 'Save' }).click();
    await saved('Saved task definition fresh_task');
    expect(await ui.api('GET', '/api/metadata/taskdefs/fresh_task')).toMatchObject({ retryCount: 2 });
    await ui.shot('editor-new-task-saved-twice');
  });

  it('draws the definition, selects a task from the diagram, and edits tasks inside branches, cases and loops in forms', async () => {
    const simple = (ref: string) => ({ name: `${ref}_task`, taskReferenceName: ref, type: 'SIMPLE' });
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'nested',
      version: 1,
      tasks: [
        simple('first'),
        {
          name: 'split',
          taskReferenceName: 'split',
          type: 'FORK_JOIN',
          forkTasks: [[simple('b1')], [simple('b2')]],
        },
        { name: 'gather', taskReferenceName: 'gather', type: 'JOIN', joinOn: ['b1', 'b2'] },
        {
          name: 'pick',
          taskReferenceName: 'pick',
          type: 'SWITCH',
          evaluatorType: 'value-param',
          expression: 'size',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: Conductor's expression syntax.
          inputParameters: { size: '${workflow.input.size}' },
          decisionCases: { small: [simple('small_box')] },
          defaultCase: [],
        },
        {
          name: 'repeat',
          taskReferenceName: 'repeat',
          type: 'DO_WHILE',
          loopCondition: "if ($.repeat['iteration'] < 2) { true; } else { false; }",
          loopOver: [simple('again')],
        },
      ],
    });
    const { page } = ui;
    await openWorkflow('nested');
    const diagram = page.getByRole('figure', { name: 'Definition diagram' });
    const nodes = () =>
      diagram.getByRole('button').evaluateAll((all) => all.map((n) => n.getAttribute('aria-label')));
    expect(await nodes()).toEqual(
      expect.arrayContaining(['b2 (SIMPLE)', 'small_box (SIMPLE)', 'again (SIMPLE)', 'pick (SWITCH)']),
    );

    // A box of the diagram selects its task, nested ones too, for the form.
    await diagram.getByRole('button', { name: 'b2 (SIMPLE)' }).click();
    const trail = page.getByRole('navigation', { name: 'Selected task' });
    expect(await trail.textContent()).toMatch(/split\s*›\s*b2/);
    const form = page.getByRole('group', { name: 'Simple Task' });
    expect(await form.getByLabel('Reference name').inputValue()).toBe('b2');
    await form.getByLabel('Task name').fill('second_branch_work');
    await expect
      .poll(async () => JSON.parse(await editorText(page, DEF_JSON)).tasks[1].forkTasks[1][0].name)
      .toBe('second_branch_work');

    // The fork's form lists its branches: a task added to one, and the JOIN follows.
    await trail.getByRole('button', { name: 'split' }).click();
    const fork = page.getByRole('group', { name: 'Fork Join task' });
    await fork.getByRole('button', { name: 'Add Simple task to Branch 1' }).click();
    await expect.poll(nodes).toContain('simple_1 (SIMPLE)');
    await page.getByRole('group', { name: 'Simple Task' }).getByLabel('Reference name').fill('b1_more');

    // A new case of the switch, with a task in it.
    await diagram.getByRole('button', { name: 'pick (SWITCH)' }).click();
    const switchForm = page.getByRole('group', { name: 'Switch task' });
    await switchForm.getByLabel('New case value').fill('large');
    await switchForm.getByRole('button', { name: 'Add case' }).click();
    await switchForm.getByRole('button', { name: 'Add Yield task to Case large' }).click();
    await page.getByRole('group', { name: 'Yield Task' }).getByLabel('Reference name').fill('wait_large');

    // The loop body: its task removed and another added.
    await diagram.getByRole('button', { name: 'repeat (DO_WHILE)' }).click();
    const loop = page.getByRole('group', { name: 'Do While task' });
    await loop.getByLabel('Type of task to add to Loop over').selectOption('WAIT');
    await loop.getByRole('button', { name: 'Add to Loop over' }).click();
    await diagram.getByRole('button', { name: 'repeat (DO_WHILE)' }).click();
    await loop.getByRole('button', { name: 'Remove again' }).click();
    await expect.poll(nodes).not.toContain('again (SIMPLE)');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saved('Saved nested version 1');
    const stored = await def('nested');
    const [, split, gather, pick, repeat] = stored.tasks;
    expect(split?.forkTasks?.map((b) => b.map((t) => t.taskReferenceName))).toEqual([
      ['b1', 'b1_more'],
      ['b2'],
    ]);
    expect(split?.forkTasks?.[1]?.[0]?.name).toBe('second_branch_work');
    expect(gather?.joinOn).toEqual(['b1_more', 'b2']);
    expect(pick?.decisionCases?.large?.map((t) => [t.taskReferenceName, t.type])).toEqual([
      ['wait_large', 'YIELD'],
    ]);
    expect(repeat?.loopOver?.map((t) => t.type)).toEqual(['WAIT']);
    await diagram.getByRole('button', { name: 'wait_large (YIELD)' }).click();
    await ui.shot('editor-diagram-nested-forms');
  });

  it('saves as a new version, leaving the old version as it was', async () => {
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'versioned',
      version: 1,
      description: 'the first',
      tasks: [{ name: 'step', taskReferenceName: 'step', type: 'SIMPLE' }],
    });
    const { page } = ui;
    await openWorkflow('versioned');
    await page
      .getByRole('group', { name: 'Workflow Properties' })
      .getByLabel('Description')
      .fill('the second');
    await page.getByRole('button', { name: 'Save as new version' }).click();
    await page.waitForURL(/\/definitions\/workflows\/edit\/versioned\/2$/);
    await page.getByRole('heading', { name: 'Workflow versioned version 2' }).waitFor();
    expect(
      await page.getByRole('group', { name: 'Workflow Properties' }).getByLabel('Description').inputValue(),
    ).toBe('the second');
    expect((await def('versioned', 1)).description).toBe('the first');
    expect((await def('versioned', 2)).description).toBe('the second');
    await ui.shot('editor-save-as-new-version');
  });
});
