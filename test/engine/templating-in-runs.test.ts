/**
 * Templating as a run sees it (docs/conductor-compat.md §4.8): task inputs resolved against the run
 * and earlier tasks when scheduled, typed and spliced values, the special paths, and the defaults
 * task and workflow definitions supply.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../lib/model/execution.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { ref } from '../helpers/fixtures.ts';

describe('templates in a running workflow', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(() => h.close());

  async function pollOne(type: string): Promise<TaskRecord> {
    const task = await h.poll(type);
    if (!task) throw new Error(`no ${type} task to poll`);
    return task;
  }

  it("reads the run's own id and correlation id", async () => {
    await h.register({
      name: 'ids',
      tasks: [
        {
          name: 'echo',
          taskReferenceName: 'a',
          inputParameters: { id: ref('workflow.workflowId'), corr: ref('workflow.correlationId') },
        },
      ],
    });
    const id = await h.start('ids', {}, { correlationId: 'order-42' });
    expect((await pollOne('echo')).inputData).toEqual({ id, corr: 'order-42' });
  });

  it('reads into an earlier task output with a list index, keeping types for whole expressions', async () => {
    await h.register({
      name: 'paths',
      tasks: [
        { name: 'produce', taskReferenceName: 'a' },
        {
          name: 'consume',
          taskReferenceName: 'b',
          inputParameters: {
            firstId: ref('a.output.list[0].id'),
            count: ref('a.output.count'),
            meta: ref('a.output.meta'),
            flag: ref('a.output.flag'),
            all: ref('a.output.list'),
            text: `first=${ref('a.output.list[0].id')}, count=${ref('a.output.count')}, none=${ref('a.output.missing')}`,
            nested: { deep: [ref('workflow.input.n'), 'plain'] },
            literal: 5,
          },
        },
      ],
    });
    await h.start('paths', { n: 3 });
    await h.work('produce', {
      list: [{ id: 'x1' }, { id: 'x2' }],
      count: 2,
      meta: { region: 'eu', tags: ['a'] },
      flag: false,
    });
    expect((await pollOne('consume')).inputData).toEqual({
      firstId: 'x1',
      count: 2,
      meta: { region: 'eu', tags: ['a'] },
      flag: false,
      all: [{ id: 'x1' }, { id: 'x2' }],
      text: 'first=x1, count=2, none=null',
      nested: { deep: [3, 'plain'] },
      literal: 5,
    });
  });

  it('gives CPEWF_TASK_ID the id of the task being scheduled', async () => {
    await h.register({
      name: 'self',
      tasks: [
        { name: 'first', taskReferenceName: 'a', inputParameters: { me: ref('CPEWF_TASK_ID') } },
        { name: 'second', taskReferenceName: 'b', inputParameters: { me: `id:${ref('CPEWF_TASK_ID')}` } },
      ],
    });
    await h.start('self');
    const a = await h.work('first');
    expect(a.inputData).toEqual({ me: a.taskId });
    const b = await pollOne('second');
    expect(b.inputData).toEqual({ me: `id:${b.taskId}` });
  });

  it('never reads the process environment, through workflow.env or a bare name', async () => {
    expect(process.env.HOME).toBeDefined();
    expect(process.env.PATH).toBeDefined();
    // Registration rejects a bare unknown root such as HOME, so the bare name is built at run time.
    const bare = (inputKey: string) => ref(ref(`workflow.input.${inputKey}`));
    await h.register({
      name: 'no_env',
      tasks: [
        {
          name: 'peek',
          taskReferenceName: 'a',
          inputParameters: {
            viaEnv: ref('workflow.env.HOME'),
            viaEnvPath: ref('workflow.env.PATH'),
            bare: bare('home'),
            path: bare('path'),
            spliced: `home=${bare('home')}`,
          },
        },
      ],
    });
    await h.start('no_env', { home: 'HOME', path: 'PATH' });
    expect((await pollOne('peek')).inputData).toEqual({
      viaEnv: null,
      viaEnvPath: null,
      bare: null,
      path: null,
      spliced: 'home=null',
    });
  });

  it("fills keys missing or null in a task's input from its definition's inputTemplate", async () => {
    await h.registerTaskDefs([
      { name: 'templated', inputTemplate: { region: 'eu', retries: 3, given: 'default', nulled: 'filled' } },
    ]);
    await h.register({
      name: 'defaults',
      tasks: [
        {
          name: 'templated',
          taskReferenceName: 'a',
          inputParameters: { given: ref('workflow.input.given'), nulled: ref('workflow.input.absent') },
        },
      ],
    });
    await h.start('defaults', { given: 'mine' });
    expect((await pollOne('templated')).inputData).toEqual({
      given: 'mine',
      nulled: 'filled',
      region: 'eu',
      retries: 3,
    });
  });

  it("fills keys missing from the start input from the workflow's inputTemplate", async () => {
    await h.register({
      name: 'wf_defaults',
      inputTemplate: { tier: 'basic', limit: 10 },
      tasks: [{ name: 'use', taskReferenceName: 'a', inputParameters: { tier: ref('workflow.input.tier') } }],
    });
    const id = await h.start('wf_defaults', { limit: 99 });
    expect((await h.run(id)).input).toEqual({ tier: 'basic', limit: 99 });
    expect((await pollOne('use')).inputData).toEqual({ tier: 'basic' });
  });

  it('resolves the output parameters when the run completes, with the types intact', async () => {
    await h.register({
      name: 'outputs',
      tasks: [{ name: 'calc', taskReferenceName: 'a' }],
      outputParameters: {
        total: ref('a.output.total'),
        summary: `total is ${ref('a.output.total')}`,
        from: ref('workflow.input.who'),
      },
    });
    const id = await h.start('outputs', { who: 'me' });
    await h.work('calc', { total: 12.5 });
    expect((await h.run(id)).output).toEqual({ total: 12.5, summary: 'total is 12.5', from: 'me' });
  });

  it("answers with the last task's output when the definition has no output parameters", async () => {
    await h.register({
      name: 'last_output',
      tasks: [
        { name: 'one', taskReferenceName: 'a' },
        { name: 'two', taskReferenceName: 'b' },
      ],
    });
    const id = await h.start('last_output');
    await h.work('one', { from: 'a' });
    await h.work('two', { from: 'b' });
    expect((await h.run(id)).output).toEqual({ from: 'b' });
  });
});
