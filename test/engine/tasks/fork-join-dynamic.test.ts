/**
 * FORK_JOIN_DYNAMIC (docs/conductor-compat.md §5.8) with its JOIN: branches from `forkTaskInputs`
 * (worker and INLINE branches), from `dynamicForkTasksParam` + `dynamicForkTasksInputParamName`,
 * an empty fork, a bad payload, and 1,000 branches in one fork.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { dynamicForkFlow, inlineForkInputs, type Json, ref } from '../../helpers/fixtures.ts';

const joinTask = { name: 'gather', taskReferenceName: 'gather', type: 'JOIN' };

describe('FORK_JOIN_DYNAMIC', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(() => h.close());

  it('forks one worker task per forkTaskInputs item, and the JOIN gathers them', async () => {
    await h.register(
      dynamicForkFlow('dyn_modern', {
        inputParameters: { forkTaskName: 'resize', forkTaskInputs: ref('workflow.input.images') },
      }),
    );
    const id = await h.start('dyn_modern', { images: [{ url: 'a' }, 'b'] });
    const fork = await h.task(id, 'fan');
    expect(fork).toMatchObject({ taskType: 'FORK', status: 'COMPLETED' });
    expect(fork?.inputData.forkedTasks).toEqual(['_resize_0', '_resize_1']);
    expect((await h.task(id, '_resize_0'))?.inputData).toEqual({ url: 'a', __index: 0 });
    expect((await h.task(id, '_resize_1'))?.inputData).toEqual({ input: 'b', __index: 1 });
    expect((await h.task(id, 'gather'))?.inputData.joinOn).toEqual(['_resize_0', '_resize_1']);
    await h.work('resize', { n: 1 });
    expect((await h.run(id)).status).toBe('RUNNING');
    await h.work('resize', { n: 2 });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(Object.keys(run.output.joined as Json).sort()).toEqual(['_resize_0', '_resize_1']);
  });

  it('runs system-task branches (forkTaskType INLINE) within the decide', async () => {
    await h.register(
      dynamicForkFlow('dyn_inline', {
        inputParameters: inlineForkInputs('calc'),
      }),
    );
    const items = [1, 2, 3].map((n) => ({ n, evaluatorType: 'javascript', expression: '$.n * 10' }));
    const id = await h.start('dyn_inline', { items });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output.joined).toEqual({
      _calc_0: { result: 10 },
      _calc_1: { result: 20 },
      _calc_2: { result: 30 },
    });
  });

  it('takes a list of tasks and their inputs (dynamicForkTasksParam, dynamicForkTasksInputParamName)', async () => {
    await h.register(
      dynamicForkFlow('dyn_classic', {
        dynamicForkTasksParam: 'dynamicTasks',
        dynamicForkTasksInputParamName: 'dynamicTasksInput',
        inputParameters: {
          dynamicTasks: ref('workflow.input.tasks'),
          dynamicTasksInput: ref('workflow.input.inputs'),
        },
      }),
    );
    const id = await h.start('dyn_classic', {
      tasks: [
        { name: 'email', taskReferenceName: 'mail_1', type: 'SIMPLE' },
        { name: 'sms', taskReferenceName: 'text_1' },
      ],
      inputs: { mail_1: { to: 'a@b' }, text_1: { to: '+1' } },
    });
    expect((await h.task(id, 'mail_1'))?.inputData).toEqual({ to: 'a@b' });
    await h.work('email', { sent: true });
    await h.work('sms', { sent: true });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output.joined).toEqual({ mail_1: { sent: true }, text_1: { sent: true } });
  });

  it("merges a branch's map over the branch task's own resolved inputParameters (classic style)", async () => {
    await h.register(
      dynamicForkFlow('dyn_merge', {
        dynamicForkTasksParam: 'dynamicTasks',
        dynamicForkTasksInputParamName: 'dynamicTasksInput',
        inputParameters: {
          dynamicTasks: ref('workflow.input.tasks'),
          dynamicTasksInput: ref('workflow.input.inputs'),
        },
      }),
    );
    // The INLINE's expression sits in its own inputParameters, as the SDK's inlineTask builder puts
    // it; the fork's map gives it `n` and overrides `label`; `from` is a template of its own.
    const calc = {
      name: 'calc',
      taskReferenceName: 'calc',
      type: 'INLINE',
      inputParameters: {
        evaluatorType: 'javascript',
        expression: '$.n * 2',
        label: 'own',
        from: ref('workflow.input.origin'),
      },
    };
    const id = await h.start('dyn_merge', {
      tasks: [calc],
      inputs: { calc: { n: 21, label: 'given' } },
      origin: 'wf',
    });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect((await h.task(id, 'calc'))?.inputData).toEqual({
      evaluatorType: 'javascript',
      expression: '$.n * 2',
      label: 'given',
      from: 'wf',
      n: 21,
    });
    expect(run.output.joined).toEqual({ calc: { result: 42 } });
  });

  it('gives a retried branch the input the fork gave it, in every input style', async () => {
    // Branches get the ad-hoc task definition: 3 retries, 60 s apart.
    await h.register(
      dynamicForkFlow('dyn_retry_modern', {
        inputParameters: { forkTaskName: 'flaky', forkTaskInputs: [{ k: 'modern' }] },
      }),
    );
    await h.register(
      dynamicForkFlow('dyn_retry_classic', {
        dynamicForkTasksParam: 'dynamicTasks',
        dynamicForkTasksInputParamName: 'dynamicTasksInput',
        inputParameters: {
          dynamicTasks: [{ name: 'flaky', taskReferenceName: 'f', inputParameters: { own: 1 } }],
          dynamicTasksInput: { f: { k: 'classic' } },
        },
      }),
    );
    await h.register(
      dynamicForkFlow('dyn_retry_legacy', {
        dynamicForkJoinTasksParam: 'dynamicTasks',
        inputParameters: {
          dynamicTasks: {
            dynamicTasks: [{ taskName: 'flaky', referenceName: 'f', input: { k: 'legacy' } }],
          },
        },
      }),
    );
    for (const [name, expected] of [
      ['dyn_retry_modern', { k: 'modern', __index: 0 }],
      ['dyn_retry_classic', { own: 1, k: 'classic' }],
      ['dyn_retry_legacy', { k: 'legacy' }],
    ] as const) {
      const id = await h.start(name);
      const first = await h.work('flaky', {}, 'FAILED', 'try again');
      expect(first.inputData).toEqual(expected);
      await h.advance(60_000);
      const second = await h.work('flaky', { done: true });
      expect(second.retryCount).toBe(1);
      expect(second.inputData).toEqual(expected);
      expect((await h.run(id)).status).toBe('COMPLETED');
    }
  });

  it("resolves a later task's input and the workflow's output naming a branch's reference", async () => {
    await h.register({
      name: 'dyn_named',
      tasks: [
        {
          name: 'fan',
          taskReferenceName: 'fan',
          type: 'FORK_JOIN_DYNAMIC',
          inputParameters: inlineForkInputs('calc'),
        },
        joinTask,
        // Registration refuses a top-level task naming a reference the definition lacks (as
        // Conductor does), so the later task sits in a SWITCH's branch.
        {
          name: 'route',
          taskReferenceName: 'route',
          type: 'SWITCH',
          evaluatorType: 'value-param',
          expression: 'side',
          inputParameters: { side: 'any' },
          decisionCases: { none: [] },
          defaultCase: [
            {
              name: 'after',
              taskReferenceName: 'after',
              type: 'INLINE',
              inputParameters: {
                first: ref('_calc_0.output.result'),
                evaluatorType: 'javascript',
                expression: '$.first + 1',
              },
            },
          ],
        },
      ],
      outputParameters: {
        second: ref('_calc_1.output.result'),
        status: ref("['_calc_1'].status"),
        after: ref('after.output.result'),
      },
    });
    const items = [1, 2, 3].map((n) => ({ n, evaluatorType: 'javascript', expression: '$.n * 10' }));
    const id = await h.start('dyn_named', { items });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ second: 20, status: 'COMPLETED', after: 11 });
    // The branches the definition names stay in the run's working set; the others left it with the
    // JOIN (their rows stay).
    const working = run.tasks.map((t) => t.referenceTaskName);
    expect(working).toEqual(expect.arrayContaining(['_calc_0', '_calc_1']));
    expect(working).not.toContain('_calc_2');
    expect((await h.task(id, '_calc_2'))?.outputData).toEqual({ result: 30 });
  });

  it('keeps every branch when a template finds its reference only when read', async () => {
    await h.register({
      ...dynamicForkFlow('dyn_named_late', {
        inputParameters: inlineForkInputs('calc'),
      }),
      outputParameters: { picked: ref(`${ref('workflow.input.pick')}.output.result`) },
    });
    const items = [1, 2].map((n) => ({ n, evaluatorType: 'javascript', expression: '$.n * 10' }));
    const id = await h.start('dyn_named_late', { items, pick: '_calc_1' });
    const run = await h.run(id);
    expect(run.output).toEqual({ picked: 20 });
    expect(run.tasks.map((t) => t.referenceTaskName)).toEqual(expect.arrayContaining(['_calc_0', '_calc_1']));
  });

  it('completes at once with an empty list', async () => {
    await h.register(
      dynamicForkFlow('dyn_empty', { inputParameters: { forkTaskName: 'x', forkTaskInputs: [] } }),
    );
    const id = await h.start('dyn_empty');
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('fails the run on duplicate references or a payload that is not a list of tasks', async () => {
    await h.register(
      dynamicForkFlow('dyn_bad', {
        dynamicForkTasksParam: 'dynamicTasks',
        dynamicForkTasksInputParamName: 'dynamicTasksInput',
        inputParameters: { dynamicTasks: ref('workflow.input.tasks'), dynamicTasksInput: {} },
      }),
    );
    const dup = await h.start('dyn_bad', {
      tasks: [
        { name: 'a', taskReferenceName: 'same' },
        { name: 'b', taskReferenceName: 'same' },
      ],
    });
    expect((await h.run(dup)).status).toBe('FAILED');
    expect((await h.task(dup, 'fan'))?.reasonForIncompletion).toContain('Duplicate task reference name same');
    const notList = await h.start('dyn_bad', { tasks: 'nope' });
    expect((await h.task(notList, 'fan'))?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
  });

  it('forks SUB_WORKFLOW branches (forkTaskWorkflow): several tasks per branch', async () => {
    await h.register({
      name: 'dyn_child',
      tasks: [
        { name: 'step_a', taskReferenceName: 'a', type: 'SIMPLE' },
        { name: 'step_b', taskReferenceName: 'b', type: 'SIMPLE' },
      ],
      outputParameters: { got: ref('b.output.v') },
    });
    await h.register(
      dynamicForkFlow('dyn_children', {
        inputParameters: { forkTaskWorkflow: 'dyn_child', forkTaskInputs: [{ k: 1 }, { k: 2 }] },
      }),
    );
    const id = await h.start('dyn_children');
    expect((await h.task(id, '_dyn_child_0'))?.taskType).toBe('SUB_WORKFLOW');
    for (let i = 0; i < 2; i++) await h.work('step_a');
    await h.work('step_b', { v: 'x' });
    expect((await h.run(id)).status).toBe('RUNNING');
    await h.work('step_b', { v: 'y' });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    const joined = run.output.joined as Record<string, { got: string }>;
    expect(
      Object.values(joined)
        .map((o) => o.got)
        .sort(),
    ).toEqual(['x', 'y']);
  });

  it('runs SWITCH, DECISION and DO_WHILE branches with every task inside them; the JOIN waits for them', async () => {
    await h.register({
      ...dynamicForkFlow('dyn_containers', {
        dynamicForkTasksParam: 'dynamicTasks',
        dynamicForkTasksInputParamName: 'dynamicTasksInput',
        inputParameters: {
          dynamicTasks: ref('workflow.input.tasks'),
          dynamicTasksInput: ref('workflow.input.inputs'),
        },
      }),
      outputParameters: {
        joined: ref('gather.output'),
        second: ref('b2.output.v'),
        loops: ref('loop.output.iteration'),
      },
    });
    const route = {
      name: 'route',
      taskReferenceName: 'route',
      type: 'SWITCH',
      evaluatorType: 'value-param',
      expression: 'side',
      decisionCases: {
        b: [
          { name: 'step', taskReferenceName: 'b1' },
          { name: 'step', taskReferenceName: 'b2', inputParameters: { got: ref('b1.output.v') } },
        ],
      },
      defaultCase: [{ name: 'never', taskReferenceName: 'never' }],
    };
    const pick = {
      name: 'pick',
      taskReferenceName: 'pick',
      type: 'DECISION',
      caseValueParam: 'which',
      decisionCases: {
        x: [{ name: 'px', taskReferenceName: 'px', type: 'INLINE', inputParameters: { expression: '"X"' } }],
      },
    };
    const loop = {
      name: 'loop',
      taskReferenceName: 'loop',
      type: 'DO_WHILE',
      loopCondition: "$.loop['iteration'] < 2",
      loopOver: [
        { name: 'tick', taskReferenceName: 'tick' },
        { name: 'tock', taskReferenceName: 'tock', type: 'INLINE', inputParameters: { expression: '1' } },
      ],
    };
    const id = await h.start('dyn_containers', {
      tasks: [route, pick, loop],
      inputs: { route: { side: 'b' }, pick: { which: 'x' } },
    });
    expect((await h.task(id, 'gather'))?.inputData.joinOn).toEqual(['route', 'pick', 'loop']);
    expect((await h.task(id, 'px'))?.outputData).toEqual({ result: 'X' });

    const b1 = await h.work('step', { v: 1 });
    expect(b1.referenceTaskName).toBe('b1');
    expect((await h.run(id)).status).toBe('RUNNING');
    const b2 = await h.work('step', { v: 2 });
    expect(b2.referenceTaskName).toBe('b2');
    expect(b2.inputData).toEqual({ got: 1 });
    await h.work('tick');
    // The SWITCH's case and the first iteration are over, the loop goes on: the JOIN waits.
    expect((await h.task(id, 'gather'))?.status).toBe('IN_PROGRESS');
    await h.work('tick');
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toMatchObject({
      second: 2,
      loops: 2,
      joined: { route: { selectedCase: 'b' }, pick: { caseOutput: ['x'] }, loop: { iteration: 2 } },
    });
    expect(await h.task(id, 'never')).toBeUndefined();
    // With the JOIN the branches left the run's working set, but for those the definition names.
    const working = run.tasks.map((t) => t.referenceTaskName);
    expect(working).toEqual(expect.arrayContaining(['b2', 'loop']));
    for (const gone of ['route', 'b1', 'pick', 'px', 'tick__1', 'tick__2', 'tock__2'])
      expect(working).not.toContain(gone);
    expect((await h.tasks(id)).map((t) => t.referenceTaskName)).toEqual(
      expect.arrayContaining(['tick__1', 'tock__1', 'tick__2', 'tock__2']),
    );
  });

  it('runs a FORK_JOIN and its JOIN inside a SWITCH branch', async () => {
    await h.register(
      dynamicForkFlow('dyn_fork_in_switch', {
        dynamicForkTasksParam: 'dynamicTasks',
        dynamicForkTasksInputParamName: 'dynamicTasksInput',
        inputParameters: { dynamicTasks: ref('workflow.input.tasks'), dynamicTasksInput: {} },
      }),
    );
    const wrapped = {
      name: 'wrap',
      taskReferenceName: 'wrap',
      type: 'SWITCH',
      evaluatorType: 'javascript',
      expression: '"go"',
      decisionCases: {
        go: [
          {
            name: 'inner_fork',
            taskReferenceName: 'inner_fork',
            type: 'FORK_JOIN',
            forkTasks: [
              [{ name: 'left', taskReferenceName: 'left' }],
              [{ name: 'right', taskReferenceName: 'right' }],
            ],
          },
          { name: 'inner_join', taskReferenceName: 'inner_join', type: 'JOIN', joinOn: ['left', 'right'] },
          {
            name: 'last',
            taskReferenceName: 'last',
            type: 'INLINE',
            inputParameters: { expression: '"done"' },
          },
        ],
      },
    };
    const id = await h.start('dyn_fork_in_switch', { tasks: [wrapped] });
    await h.work('left');
    expect((await h.run(id)).status).toBe('RUNNING');
    await h.work('right');
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect((await h.task(id, 'last'))?.outputData).toEqual({ result: 'done' });
  });

  it('runs a SWITCH branch in every iteration of a loop around the fork', async () => {
    await h.register({
      name: 'dyn_in_loop',
      tasks: [
        {
          name: 'outer',
          taskReferenceName: 'outer',
          type: 'DO_WHILE',
          loopCondition: "$.outer['iteration'] < 2",
          loopOver: [
            {
              name: 'fan',
              taskReferenceName: 'fan',
              type: 'FORK_JOIN_DYNAMIC',
              dynamicForkTasksParam: 'dynamicTasks',
              dynamicForkTasksInputParamName: 'dynamicTasksInput',
              inputParameters: { dynamicTasks: ref('workflow.input.tasks'), dynamicTasksInput: {} },
            },
            joinTask,
          ],
        },
      ],
    });
    const sw = {
      name: 'sw',
      taskReferenceName: 'sw',
      type: 'SWITCH',
      evaluatorType: 'javascript',
      expression: '"a"',
      decisionCases: {
        a: [
          { name: 'job', taskReferenceName: 'job' },
          { name: 'job', taskReferenceName: 'job2' },
        ],
      },
    };
    const id = await h.start('dyn_in_loop', { tasks: [sw] });
    for (let i = 0; i < 4; i++) await h.work('job');
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect((await h.tasks(id)).map((t) => t.referenceTaskName)).toEqual(
      expect.arrayContaining([
        'sw__1',
        'job__1',
        'job2__1',
        'gather__1',
        'sw__2',
        'job__2',
        'job2__2',
        'gather__2',
      ]),
    );
  });

  it('takes a SWITCH branch from a forkTaskInputs item, as Conductor reads the item as a workflow task', async () => {
    await h.register(
      dynamicForkFlow('dyn_modern_switch', {
        inputParameters: {
          forkTaskType: 'SWITCH',
          forkTaskName: 'route',
          forkTaskInputs: ref('workflow.input.items'),
        },
      }),
    );
    const item = {
      side: 'b',
      evaluatorType: 'value-param',
      expression: 'side',
      decisionCases: {
        b: [{ name: 'bx', taskReferenceName: 'bx', type: 'INLINE', inputParameters: { expression: '"B"' } }],
      },
    };
    const id = await h.start('dyn_modern_switch', { items: [item] });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect((await h.task(id, 'bx'))?.outputData).toEqual({ result: 'B' });
    // An item without the SWITCH's own fields gives a SWITCH with no evaluator: it fails terminally.
    const bare = await h.start('dyn_modern_switch', { items: [{ a: 1 }] });
    expect((await h.run(bare)).status).toBe('FAILED');
    expect((await h.task(bare, '_route_0'))?.reasonForIncompletion).toContain('No evaluator registered');
  });

  it('refuses FORK_JOIN, FORK_JOIN_DYNAMIC, JOIN and EXCLUSIVE_JOIN branches, saying why', async () => {
    await h.register(
      dynamicForkFlow('dyn_unplaceable', {
        dynamicForkTasksParam: 'dynamicTasks',
        dynamicForkTasksInputParamName: 'dynamicTasksInput',
        inputParameters: { dynamicTasks: ref('workflow.input.tasks'), dynamicTasksInput: {} },
      }),
    );
    const cases: [Json, string][] = [
      [
        {
          name: 'f',
          taskReferenceName: 'f',
          type: 'FORK_JOIN',
          forkTasks: [[{ name: 'a', taskReferenceName: 'a' }]],
        },
        'a FORK_JOIN needs its JOIN right after it',
      ],
      [
        { name: 'd', taskReferenceName: 'd', type: 'FORK_JOIN_DYNAMIC' },
        'a FORK_JOIN_DYNAMIC needs its JOIN',
      ],
      [{ name: 'j', taskReferenceName: 'j', type: 'JOIN', joinOn: [] }, 'a JOIN waits for the branches'],
      [{ name: 'x', taskReferenceName: 'x', type: 'EXCLUSIVE_JOIN' }, 'an EXCLUSIVE_JOIN waits'],
    ];
    for (const [task, why] of cases) {
      const id = await h.start('dyn_unplaceable', { tasks: [{ name: 'ok', taskReferenceName: 'ok' }, task] });
      expect((await h.run(id)).status).toBe('FAILED');
      const fork = await h.task(id, 'fan');
      expect(fork?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
      expect(fork?.reasonForIncompletion).toContain(`is a ${String(task.type)}: ${why}`);
      expect(fork?.reasonForIncompletion).toContain('inside a SWITCH case or a DO_WHILE');
      // Nothing of the fork was scheduled: no worker waits on a branch of a failed run.
      expect(await h.poll('ok')).toBeUndefined();
    }
  });

  it('fails the fork on a malformed container or a reference the run already has', async () => {
    await h.register(
      dynamicForkFlow('dyn_bad_container', {
        dynamicForkTasksParam: 'dynamicTasks',
        dynamicForkTasksInputParamName: 'dynamicTasksInput',
        inputParameters: { dynamicTasks: ref('workflow.input.tasks'), dynamicTasksInput: {} },
      }),
    );
    const sw = (cases: unknown) => ({
      name: 'sw',
      taskReferenceName: 'sw',
      type: 'SWITCH',
      evaluatorType: 'value-param',
      expression: 'x',
      decisionCases: cases,
    });
    const cases: [unknown, string][] = [
      [[sw(['not', 'a', 'map'])], 'decisionCases of sw must be a map of task lists'],
      [[sw({ a: 'nope' })], 'decisionCases of sw must be a list of tasks'],
      [[sw({ a: [{ name: 'no_ref' }] })], 'Every dynamically forked task needs a taskReferenceName'],
      [
        [sw({ a: [{ name: 'j', taskReferenceName: 'j', type: 'JOIN', joinOn: 'x' }] })],
        'joinOn of the dynamically forked task j must be a list of references',
      ],
      [
        [{ name: 't', taskReferenceName: 't', taskDefinition: 'x' }],
        'taskDefinition of the dynamically forked task t must be a map',
      ],
      [[sw({ a: [{ name: 'g', taskReferenceName: 'gather' }] })], 'Duplicate task reference name gather'],
      [
        [sw({ a: [{ name: 'k', taskReferenceName: 'k' }] }), { name: 'k', taskReferenceName: 'k' }],
        'Duplicate task reference name k',
      ],
    ];
    for (const [tasks, reason] of cases) {
      const id = await h.start('dyn_bad_container', { tasks });
      expect((await h.run(id)).status).toBe('FAILED');
      expect((await h.task(id, 'fan'))?.reasonForIncompletion).toContain(reason);
    }
  });

  it('forks 1,000 INLINE branches in one fork', async () => {
    await h.register(
      dynamicForkFlow('dyn_thousand', {
        inputParameters: inlineForkInputs('sq'),
      }),
    );
    const items = Array.from({ length: 1000 }, (_, n) => ({
      n,
      evaluatorType: 'value-param',
      expression: 'n',
    }));
    const id = await h.start('dyn_thousand', { items });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    const joined = run.output.joined as Record<string, { result: number }>;
    expect(Object.keys(joined)).toHaveLength(1000);
    expect(joined._sq_999).toEqual({ result: 999 });
  });

  it('registers only with one of its input styles', async () => {
    await expect(h.register(dynamicForkFlow('dyn_missing', {}))).rejects.toThrow(/dynamicForkTasksParam and/);
  });
});
