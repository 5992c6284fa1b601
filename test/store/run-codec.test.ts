/**
 * The run record codec (lib/store/run-codec.ts, compact-task.ts): a record comes back equal to what
 * was encoded, whatever its tasks hold; records in the earlier whole-task form still read; and a
 * 1,000-branch dynamic fork's record stays small: about 0.3 KB of JSON per open branch (1 KB
 * before), and a DynamoDB item far below the 400 KB cap once deflated.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRef, graphOf } from '../../lib/model/definition-graph.ts';
import type { TaskRecord, WorkflowRecord } from '../../lib/model/execution.ts';
import { DEFLATE_OVER, runOf, workflowItem } from '../../lib/store/dynamodb/execution-items.ts';
import { decodeRun, encodeRun } from '../../lib/store/run-codec.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { ref } from '../helpers/fixtures.ts';

const BRANCHES = 1000;

describe('run record codec', () => {
  let h: EngineHarness;
  let forked: WorkflowRecord;
  beforeAll(async () => {
    h = await engineHarness();
    await h.register({
      name: 'codec_fork',
      tasks: [
        { name: 'first', taskReferenceName: 'first', type: 'SIMPLE' },
        {
          name: 'fan',
          taskReferenceName: 'fan',
          type: 'FORK_JOIN_DYNAMIC',
          inputParameters: { forkTaskName: 'crunch', forkTaskInputs: ref('workflow.input.items') },
        },
        { name: 'gather', taskReferenceName: 'gather', type: 'JOIN' },
      ],
    });
    const items = Array.from({ length: BRANCHES }, (_, n) => ({ n, label: `item-${n}` }));
    const id = await h.start('codec_fork', { items }, { correlationId: 'c-1', priority: 7 });
    await h.work('first', { done: true });
    forked = await h.run(id);
  });
  afterAll(() => h.close());

  it('gives back the record it encoded, with each kind of workflow task', () => {
    expect(forked.tasks.length).toBe(BRANCHES + 3);
    const decoded = decodeRun(encodeRun(forked));
    expect(decoded).toEqual(forked);
    // The definition's own workflow task is the definition's object again, not a copy.
    const graph = graphOf(decoded.workflowDefinition);
    expect(decoded.tasks[0]?.workflowTask).toBe(graph.task('first'));
    // A synthesized one gets its own reference name back from the shared shape.
    const branch = decoded.tasks.find((t) => t.referenceTaskName === '_crunch_999');
    expect(branch?.workflowTask).toMatchObject({
      name: 'crunch',
      type: 'SIMPLE',
      taskReferenceName: '_crunch_999',
    });
  });

  it('keeps every field that differs from what it would leave out', () => {
    const [first, second] = forked.tasks as [TaskRecord, TaskRecord];
    const odd: TaskRecord = {
      ...second,
      workflowInstanceId: 'another-run',
      workflowType: 'another_name',
      workflowPriority: 3,
      taskDefName: 'not_the_name',
      retryCount: 2,
      responseTimeoutSeconds: 0,
      callbackFromWorker: false,
      executed: true,
      retried: true,
      rev: 5,
      outputData: { kept: 1 },
      firstScheduledTime: 1,
      updateTime: 2,
      iteration: 3,
      visibleAt: second.scheduledTime + 90_000,
      referenceTaskName: `${first.referenceTaskName}__3`,
      // A workflow task whose reference is not the task's own: kept whole.
      workflowTask: { ...first.workflowTask, taskReferenceName: 'elsewhere' },
    };
    const run: WorkflowRecord = { ...forked, tasks: [first, odd] };
    expect(decodeRun(encodeRun(run))).toEqual(run);
    expect(decodeRun(encodeRun(run, { withoutDefinition: true }), run.workflowDefinition)).toEqual(run);
  });

  it('reads a record stored whole, as before the compact form', () => {
    const graph = graphOf(forked.workflowDefinition);
    const whole = JSON.stringify({
      ...forked,
      tasks: forked.tasks.map((task) => {
        if (graph.task(baseRef(task.referenceTaskName)) !== task.workflowTask) return task;
        const { workflowTask: _omitted, ...rest } = task;
        return rest;
      }),
    });
    expect(decodeRun(whole)).toEqual(forked);
  });

  it('stores a 1,000-branch fork in about 0.3 KB per open branch, deflated far below 400 KB on DynamoDB', () => {
    const json = encodeRun(forked);
    const stored = JSON.parse(json) as { tasks: { referenceTaskName: string }[] };
    const branches = stored.tasks.filter((t) => t.referenceTaskName.startsWith('_crunch_'));
    expect(branches).toHaveLength(BRANCHES);
    expect(JSON.stringify(branches).length / BRANCHES).toBeLessThan(320);
    const item = workflowItem(forked);
    expect(json.length).toBeGreaterThan(DEFLATE_OVER);
    expect(item.body).toBeUndefined();
    expect((item.bodyZ as Uint8Array).byteLength).toBeLessThan(100 * 1024);
    expect(runOf(item)).toEqual(forked);
  });

  it('refuses a record that would not fit a DynamoDB item even deflated, saying so', () => {
    const noise = (i: number) => randomBytes(600).toString('base64') + i;
    const huge: WorkflowRecord = {
      ...forked,
      tasks: forked.tasks.map((task, i) => ({ ...task, inputData: { noise: noise(i) } })),
    };
    expect(() => workflowItem(huge)).toThrow(/more than a DynamoDB item holds \(400 KB\)/);
  });

  it('keeps a record that fits one write unit plain on DynamoDB, and deflates one that does not', () => {
    const small: WorkflowRecord = { ...forked, input: {}, output: {}, tasks: [] };
    const item = workflowItem(small, 'snapshot-hash');
    expect(item.bodyZ).toBeUndefined();
    expect(String(item.body).length).toBeLessThanOrEqual(DEFLATE_OVER);
    expect(runOf(item, small.workflowDefinition)).toEqual(small);

    const branches = forked.tasks.filter((t) => t.referenceTaskName.startsWith('_crunch_'));
    const five: WorkflowRecord = { ...small, tasks: branches.slice(0, 5) };
    expect(encodeRun(five, { withoutDefinition: true }).length).toBeGreaterThan(DEFLATE_OVER);
    const deflated = workflowItem(five, 'snapshot-hash');
    expect(deflated.body).toBeUndefined();
    expect((deflated.bodyZ as Uint8Array).byteLength).toBeLessThanOrEqual(1024);
    expect(runOf(deflated, five.workflowDefinition)).toEqual(five);
  });
});
