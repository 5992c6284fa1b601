/**
 * SET_VARIABLE through the in-memory engine (docs/conductor-compat.md §5.15): values written into the
 * run's variables are readable by later tasks, overwrite earlier ones, and are capped in size.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { type Json, ref } from '../../helpers/fixtures.ts';

const setVariable = (name: string, inputParameters: Json): Json => ({
  name,
  taskReferenceName: name,
  type: 'SET_VARIABLE',
  inputParameters,
});

const reader: Json = {
  name: 'reader',
  taskReferenceName: 'reader',
  type: 'SIMPLE',
  inputParameters: { x: ref('workflow.variables.x'), kept: ref('workflow.variables.kept') },
};

describe('SET_VARIABLE', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(() => h.close());

  it('writes its input into the run variables, visible to a later task as workflow.variables', async () => {
    await h.register({
      name: 'set_then_read',
      variables: { kept: 'from the definition', x: 'old' },
      tasks: [setVariable('set_x', { x: ref('workflow.input.value') }), reader],
    });
    const id = await h.start('set_then_read', { value: { nested: [1, 2] } });
    const set = await h.task(id, 'set_x');
    expect(set?.status).toBe('COMPLETED');
    expect(set?.outputData).toEqual({});
    expect((await h.run(id)).variables).toEqual({ kept: 'from the definition', x: { nested: [1, 2] } });
    expect((await h.poll('reader'))?.inputData).toEqual({
      x: { nested: [1, 2] },
      kept: 'from the definition',
    });
  });

  it('lets a later SET_VARIABLE overwrite an earlier value', async () => {
    await h.register({
      name: 'set_twice',
      tasks: [setVariable('first_set', { x: 1 }), setVariable('second_set', { x: 2 }), reader],
    });
    const id = await h.start('set_twice');
    expect((await h.run(id)).variables).toEqual({ x: 2 });
    expect((await h.poll('reader'))?.inputData).toMatchObject({ x: 2 });
  });

  it('fails terminally and leaves the variables unchanged when they would exceed 256 KB', async () => {
    await h.register({
      name: 'set_too_much',
      tasks: [
        setVariable('small', { x: 'small' }),
        setVariable('huge', { blob: ref('workflow.input.blob') }),
        reader,
      ],
    });
    const id = await h.start('set_too_much', { blob: 'b'.repeat(256 * 1024) });
    const huge = await h.task(id, 'huge');
    expect(huge?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
    expect(huge?.reasonForIncompletion).toContain('greater than the permissible limit: 262144 bytes');
    const run = await h.run(id);
    expect(run.variables).toEqual({ x: 'small' });
    expect(run.status).toBe('FAILED');
  });
});
