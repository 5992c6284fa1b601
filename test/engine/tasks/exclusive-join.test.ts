/**
 * EXCLUSIVE_JOIN (docs/conductor-compat.md §5.9) after a SWITCH: it completes with the output of the
 * branch that ran, fails if that branch failed, and falls back to defaultExclusiveJoinTask.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { ref } from '../../helpers/fixtures.ts';

const w = (name: string) => ({ name, taskReferenceName: name, type: 'SIMPLE' });

describe('EXCLUSIVE_JOIN', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.registerTaskDefs([{ name: 'left', retryCount: 0 }]);
    await h.register({
      name: 'exclusive_flow',
      tasks: [
        {
          name: 'route',
          taskReferenceName: 'route',
          type: 'SWITCH',
          evaluatorType: 'value-param',
          expression: 'side',
          inputParameters: { side: ref('workflow.input.side') },
          decisionCases: { left: [w('left')], right: [w('right')] },
          defaultCase: [w('fallback')],
        },
        {
          name: 'joined',
          taskReferenceName: 'joined',
          type: 'EXCLUSIVE_JOIN',
          joinOn: ['left', 'right'],
          defaultExclusiveJoinTask: ['fallback'],
        },
      ],
      outputParameters: { out: ref('joined.output') },
    });
  });
  afterEach(() => h.close());

  it('completes with the output of the branch that ran', async () => {
    const id = await h.start('exclusive_flow', { side: 'right' });
    expect(await h.task(id, 'joined')).toBeUndefined();
    await h.work('right', { v: 'R' });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ out: { v: 'R' } });
  });

  it('uses defaultExclusiveJoinTask when no joinOn task ran', async () => {
    const id = await h.start('exclusive_flow', { side: 'neither' });
    await h.work('fallback', { v: 'F' });
    expect((await h.run(id)).output).toEqual({ out: { v: 'F' } });
  });

  it('fails the run when the joined branch failed', async () => {
    const id = await h.start('exclusive_flow', { side: 'left' });
    await h.work('left', {}, 'FAILED', 'broken');
    expect((await h.run(id)).status).toBe('FAILED');
  });

  it('registers only with joinOn or defaultExclusiveJoinTask', async () => {
    await expect(
      h.register({
        name: 'ej_missing',
        tasks: [{ name: 'j', taskReferenceName: 'j', type: 'EXCLUSIVE_JOIN' }],
      }),
    ).rejects.toThrow(/joinOn \(or defaultExclusiveJoinTask\) is required/);
  });
});
