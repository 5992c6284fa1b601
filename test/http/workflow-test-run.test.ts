/**
 * POST /api/workflow/test (docs/conductor-compat.md §1.6, §2.16): a run against mocked workers,
 * through the real decider in a throwaway engine. SWITCH, retries, FORK_JOIN, WAIT and
 * sub-workflows behave as in a real run; a task without a mock stays SCHEDULED; nothing of the
 * test is left in the service's stores or queues; bad requests are 400, unknown definitions 404.
 */
import { describe, expect, it } from 'vitest';
import { fork, type Json, join, ref, uniqueName, worker } from '../helpers/fixtures.ts';
import { errorBody, pathsOf, useTestServer } from '../helpers/server.ts';
import { type ApiTask, type ApiWorkflow, ExecutionApi, expectJson } from './execution-api.ts';

const api = new ExecutionApi(useTestServer({ 'service.instance-id': 'workflow-test-run' }));

const testRun = (body: unknown) => api.send('POST', '/api/workflow/test', body);

async function simulate(body: Json): Promise<ApiWorkflow> {
  return expectJson<ApiWorkflow>(await testRun(body));
}

/** The task rows of a reference name, in order. */
const attempts = (run: ApiWorkflow, refName: string): ApiTask[] =>
  (run.tasks ?? []).filter((t) => t.referenceTaskName === refName);

const only = (run: ApiWorkflow, refName: string): ApiTask => {
  const [task, ...more] = attempts(run, refName);
  expect(more).toEqual([]);
  if (!task) throw new Error(`no task ${refName} in ${JSON.stringify(run.tasks)}`);
  return task;
};

/** The test run left nothing behind: the run is unknown and its worker types have nothing to poll. */
async function expectNoTrace(run: ApiWorkflow, taskTypes: string[]): Promise<void> {
  await errorBody(await api.get(`/api/workflow/${run.workflowId}`), 404);
  for (const type of taskTypes) expect(await api.poll(type)).toBeUndefined();
}

function inlineDef(tasks: Json[], extra: Json = {}): Json {
  return { name: uniqueName('test_run'), version: 1, tasks, ...extra };
}

describe('POST /api/workflow/test', () => {
  it('takes the SWITCH branch that a mocked output selects', async () => {
    const [check, big, small] = [uniqueName('check'), uniqueName('big'), uniqueName('small')];
    const def = inlineDef(
      [
        worker(check),
        {
          name: 'route',
          taskReferenceName: 'route',
          type: 'SWITCH',
          evaluatorType: 'value-param',
          expression: 'kind',
          inputParameters: { kind: ref(`${check}.output.kind`) },
          decisionCases: { big: [worker(big)], small: [worker(small)] },
        },
      ],
      { outputParameters: { result: ref(`${big}.output.done`) } },
    );
    const run = await simulate({
      workflowDef: def,
      input: { order: 7 },
      taskRefToMockOutput: { [check]: [{ output: { kind: 'big' } }], [big]: [{ output: { done: 'yes' } }] },
    });
    expect(run).toMatchObject({ status: 'COMPLETED', input: { order: 7 }, output: { result: 'yes' } });
    expect(run.tasks?.map((t) => t.referenceTaskName)).toEqual([check, 'route', big]);
    expect(only(run, 'route').outputData).toMatchObject({ evaluationResult: ['big'] });
    await expectNoTrace(run, [check, big, small]);
  });

  it('retries a task whose first mock FAILED and gives the retry the second mock, without waiting', async () => {
    const flaky = uniqueName('flaky');
    const started = Date.now();
    const run = await simulate({
      workflowDef: inlineDef([worker(flaky, { retryCount: 1 })]),
      taskRefToMockOutput: {
        [flaky]: [{ status: 'FAILED', output: { error: 'boom' } }, { output: { ok: true } }],
      },
    });
    expect(run.status).toBe('COMPLETED');
    const [first, second] = attempts(run, flaky);
    expect(first).toMatchObject({ status: 'FAILED', retryCount: 0, outputData: { error: 'boom' } });
    expect(second).toMatchObject({ status: 'COMPLETED', retryCount: 1, outputData: { ok: true } });
    // The default retry delay (60 s) passed on the simulated clock, not on the wall clock.
    expect((second?.startTime ?? 0) - (first?.endTime ?? 0)).toBeGreaterThanOrEqual(60_000);
    expect(Date.now() - started).toBeLessThan(30_000);
    await expectNoTrace(run, [flaky]);
  });

  it('fails the run when the mocks run out of retries', async () => {
    const flaky = uniqueName('flaky');
    const run = await simulate({
      workflowDef: inlineDef([worker(flaky)]),
      taskRefToMockOutput: { [flaky]: [{ status: 'FAILED_WITH_TERMINAL_ERROR' }] },
    });
    expect(run.status).toBe('FAILED');
    expect(only(run, flaky).status).toBe('FAILED_WITH_TERMINAL_ERROR');
  });

  it('runs the branches of a FORK_JOIN and joins their mocked outputs', async () => {
    const [a, b, after] = [uniqueName('a'), uniqueName('b'), uniqueName('after')];
    const run = await simulate({
      workflowDef: inlineDef([
        fork('split', [[worker(a)], [worker(b)]]),
        join('merge', [a, b]),
        worker(after, { inputParameters: { fromA: ref(`${a}.output.x`), fromB: ref(`${b}.output.y`) } }),
      ]),
      taskRefToMockOutput: {
        [a]: [{ output: { x: 1 }, executionTime: 500, queueWaitTime: 100 }],
        [b]: [{ output: { y: 2 }, executionTime: 2000 }],
        [after]: [{}],
      },
    });
    expect(run.status).toBe('COMPLETED');
    expect(only(run, 'merge').outputData).toEqual({ [a]: { x: 1 }, [b]: { y: 2 } });
    expect(only(run, after)).toMatchObject({ status: 'COMPLETED', inputData: { fromA: 1, fromB: 2 } });
    // Mocked times run on the simulated clock, the branches side by side.
    const taskA = only(run, a);
    const taskB = only(run, b);
    expect(taskA.startTime - taskA.scheduledTime).toBe(100);
    expect(taskA.endTime - taskA.startTime).toBe(500);
    expect(taskB.endTime - taskB.startTime).toBe(2000);
    expect(taskB.startTime).toBe(taskA.scheduledTime);
    await expectNoTrace(run, [a, b, after]);
  });

  it('leaves a task without a mock SCHEDULED and the run RUNNING', async () => {
    const [first, second] = [uniqueName('first'), uniqueName('second')];
    const run = await simulate({
      workflowDef: inlineDef([worker(first), worker(second)], { timeoutSeconds: 60 }),
      taskRefToMockOutput: { [first]: [{ output: { n: 1 } }] },
    });
    expect(run.status).toBe('RUNNING');
    expect(only(run, first).status).toBe('COMPLETED');
    // Not fast-forwarded into the workflow's 60 s timeout: time passes only for a pending event.
    expect(only(run, second)).toMatchObject({ status: 'SCHEDULED', pollCount: 0 });
    await expectNoTrace(run, [first, second]);
  });

  it('lets a WAIT duration pass on the simulated clock', async () => {
    const after = uniqueName('after');
    const run = await simulate({
      workflowDef: inlineDef([
        { name: 'pause', taskReferenceName: 'pause', type: 'WAIT', inputParameters: { duration: '2 hours' } },
        worker(after),
      ]),
      taskRefToMockOutput: { [after]: [{}] },
    });
    expect(run.status).toBe('COMPLETED');
    const pause = only(run, 'pause');
    expect(pause.status).toBe('COMPLETED');
    expect(pause.endTime - pause.scheduledTime).toBeGreaterThanOrEqual(2 * 3600 * 1000);
  });

  it('runs a registered sub-workflow with the mocks of its subWorkflowTestRequest', async () => {
    const [inner, outer] = [uniqueName('inner'), uniqueName('outer')];
    const child = {
      name: uniqueName('child'),
      version: 1,
      tasks: [worker(inner)],
      outputParameters: { v: ref(`${inner}.output.v`) },
    };
    await api.registerWorkflow(child);
    const parent = {
      name: uniqueName('parent'),
      version: 1,
      tasks: [
        {
          name: 'sub',
          taskReferenceName: 'sub',
          type: 'SUB_WORKFLOW',
          subWorkflowParam: { name: child.name, version: 1 },
        },
        worker(outer, { inputParameters: { v: ref('sub.output.v') } }),
      ],
    };
    await api.registerWorkflow(parent);
    const run = await simulate({
      name: parent.name,
      version: 1,
      taskRefToMockOutput: { [outer]: [{}] },
      subWorkflowTestRequest: { sub: { taskRefToMockOutput: { [inner]: [{ output: { v: 42 } }] } } },
    });
    expect(run).toMatchObject({ status: 'COMPLETED', workflowName: parent.name, workflowVersion: 1 });
    const sub = only(run, 'sub');
    expect(sub).toMatchObject({ status: 'COMPLETED', outputData: { v: 42 } });
    expect(only(run, outer).inputData).toEqual({ v: 42 });
    await errorBody(await api.get(`/api/workflow/${String(sub.subWorkflowId)}`), 404);
    await expectNoTrace(run, [inner, outer]);
  });

  it('runs a sub-workflow from the definition given in subWorkflowTestRequest', async () => {
    const [retried, registered] = [uniqueName('retried'), uniqueName('registered_only')];
    const childName = uniqueName('child');
    await api.registerWorkflow({ name: childName, version: 1, tasks: [worker(registered)] });
    const run = await simulate({
      workflowDef: inlineDef([
        {
          name: 'sub',
          taskReferenceName: 'sub',
          type: 'SUB_WORKFLOW',
          subWorkflowParam: { name: childName },
        },
      ]),
      subWorkflowTestRequest: {
        sub: {
          workflowDef: { name: childName, version: 2, tasks: [worker(retried, { retryCount: 1 })] },
          taskRefToMockOutput: { [retried]: [{ status: 'FAILED' }, { output: { ok: 1 } }] },
        },
      },
    });
    expect(run.status).toBe('COMPLETED');
    expect(only(run, 'sub').outputData).toMatchObject({ subWorkflowId: expect.any(String) });
    await expectNoTrace(run, [retried, registered]);
  });

  it('answers 404 for a workflow that is neither inline nor registered', async () => {
    const body = await errorBody(await testRun({ name: uniqueName('missing'), version: 3 }), 404);
    expect(body.message).toMatch(/No such workflow defined/);
  });

  it('answers 400 listing the problems of an invalid inline definition', async () => {
    const body = await errorBody(await testRun({ name: 'x', workflowDef: { name: 'x', tasks: [] } }), 400);
    expect(body.message).toMatch(/workflow definition is not valid/);
    expect(pathsOf(body)).toContain('tasks');
  });

  it('answers 400 for malformed JSON and a body that is not an object', async () => {
    expect((await errorBody(await testRun('{"name": "x",'), 400)).message).toMatch(/Malformed JSON/);
    expect((await errorBody(await testRun([1]), 400)).message).toMatch(/must be a JSON object/);
    expect((await errorBody(await testRun(undefined), 400)).message).toMatch(/required/);
  });

  it('answers 400 listing every mock of the wrong shape', async () => {
    const body = await errorBody(
      await testRun({
        name: 'x',
        version: 'one',
        taskRefToMockOutput: {
          a: { status: 'COMPLETED' },
          b: [{ status: 'DONE', output: [1], executionTime: -1, queueWaitTime: 'soon' }, 7],
        },
        subWorkflowTestRequest: {
          s: 'no',
          t: { workflowDef: { name: '', tasks: [] }, taskRefToMockOutput: [] },
        },
      }),
      400,
    );
    expect(pathsOf(body)).toEqual(
      expect.arrayContaining([
        'version',
        'taskRefToMockOutput.a',
        'taskRefToMockOutput.b[0].status',
        'taskRefToMockOutput.b[0].output',
        'taskRefToMockOutput.b[0].executionTime',
        'taskRefToMockOutput.b[0].queueWaitTime',
        'taskRefToMockOutput.b[1]',
        'subWorkflowTestRequest.s',
        'subWorkflowTestRequest.t.taskRefToMockOutput',
        'subWorkflowTestRequest.t.workflowDef.name',
        'subWorkflowTestRequest.t.workflowDef.tasks',
      ]),
    );
  });

  it('answers 400 when there is neither a name nor a definition', async () => {
    const body = await errorBody(await testRun({ input: {} }), 400);
    expect(pathsOf(body)).toContain('name');
  });
});
