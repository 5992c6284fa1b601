/**
 * START_WORKFLOW (docs/conductor-compat.md §5.11): starts an independent run (no parent link) and
 * completes at once with its id; the starting run does not wait for it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { ref } from '../../helpers/fixtures.ts';

describe('START_WORKFLOW', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.register({
      name: 'started_child',
      tasks: [{ name: 'child_work', taskReferenceName: 'child_work', type: 'SIMPLE' }],
    });
  });
  afterEach(() => h.close());

  it('starts the run with the given input, the correlation id by default, and completes with its id', async () => {
    await h.register({
      name: 'starter_flow',
      tasks: [
        {
          name: 'kick',
          taskReferenceName: 'kick',
          type: 'START_WORKFLOW',
          inputParameters: {
            startWorkflow: { name: 'started_child', input: { x: ref('workflow.input.x') } },
          },
        },
      ],
      outputParameters: { started: ref('kick.output.workflowId') },
    });
    const id = await h.start('starter_flow', { x: 7 }, { correlationId: 'corr-1' });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    const startedId = run.output.started as string;
    expect(typeof startedId).toBe('string');
    const child = await h.run(startedId);
    expect(child).toMatchObject({ status: 'RUNNING', input: { x: 7 }, correlationId: 'corr-1' });
    expect(child.parentWorkflowId).toBeUndefined();
    await h.work('child_work');
    expect((await h.run(startedId)).status).toBe('COMPLETED');
  });

  it('fails when the workflow to start is unknown', async () => {
    await h.register({
      name: 'starter_unknown',
      tasks: [
        {
          name: 'kick',
          taskReferenceName: 'kick',
          type: 'START_WORKFLOW',
          inputParameters: { startWorkflow: { name: 'no_such_workflow' } },
        },
      ],
    });
    const id = await h.start('starter_unknown');
    const task = await h.task(id, 'kick');
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toContain('no_such_workflow');
  });

  it('registers only with a startWorkflow input', async () => {
    await expect(
      h.register({
        name: 'sw_missing',
        tasks: [{ name: 's', taskReferenceName: 's', type: 'START_WORKFLOW' }],
      }),
    ).rejects.toThrow(/startWorkflow is required/);
  });
});
