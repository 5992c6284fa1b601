/**
 * Running ended runs again (docs/conductor-compat.md §1.6, §4.7): POST /api/workflow/{id}/retry,
 * /restart and /rerun - success, each conflict with its status and message, unknown ids, bad input,
 * and the sub-workflow cases (retry with and without resumeSubworkflowTasks, rerun from a task
 * inside a child, which revives the parent).
 */
import { describe, expect, it } from 'vitest';
import { type Json, ref, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';
import {
  type ApiTask,
  type ApiWorkflow,
  ExecutionApi,
  expectNoContent,
  expectText,
} from './execution-api.ts';

const api = new ExecutionApi(useTestServer({ 'service.instance-id': 'history-ops-test' }));

/** A worker task that fails the run on its first failure. */
const step = (name: string, refName: string, input: Json = {}): Json => ({
  name,
  taskReferenceName: refName,
  type: 'SIMPLE',
  retryCount: 0,
  inputParameters: input,
});

interface Three {
  name: string;
  a: string;
  b: string;
  c: string;
}

/** a -> b -> c, each reading the one before; version 1 unless `extra` says otherwise. */
async function registerThree(extra: Json = {}): Promise<Three> {
  const t: Three = { name: uniqueName('hist'), a: uniqueName('a'), b: uniqueName('b'), c: uniqueName('c') };
  await api.registerWorkflow({
    name: t.name,
    version: 1,
    tasks: [
      step(t.a, 'a', { x: ref('workflow.input.x') }),
      step(t.b, 'b', { fromA: ref('a.output.v') }),
      step(t.c, 'c', { fromB: ref('b.output.v') }),
    ],
    outputParameters: { result: ref('c.output.v') },
    ...extra,
  });
  return t;
}

async function work(taskType: string, status = 'COMPLETED', output: Json = {}): Promise<ApiTask> {
  const task = await api.pollEventually(taskType);
  await api.update(task, status, output, status === 'COMPLETED' ? {} : { reasonForIncompletion: 'boom' });
  return task;
}

/** A run of `t` whose task b failed: a completed, b FAILED, the run FAILED. */
async function failedAtB(t: Three): Promise<string> {
  const id = await api.start(t.name, { x: 1 });
  await work(t.a, 'COMPLETED', { v: 'A' });
  await work(t.b, 'FAILED');
  await api.workflowEventually(id, 'FAILED');
  return id;
}

const post = (path: string, body?: unknown) => api.send('POST', path, body);
const tasksOf = (run: ApiWorkflow, refName: string) =>
  (run.tasks ?? []).filter((t) => t.referenceTaskName === refName);

describe('POST /api/workflow/{id}/retry', () => {
  it('runs the failed task again, never the successful ones, and completes the run', async () => {
    const t = await registerThree();
    const id = await failedAtB(t);
    const before = await api.workflow(id);
    expect(before.reasonForIncompletion).toMatch(/boom/);

    await expectNoContent(await post(`/api/workflow/${id}/retry`));
    const running = await api.workflow(id);
    expect(running.status).toBe('RUNNING');
    expect(running.reasonForIncompletion ?? '').toBe('');
    expect(running.lastRetriedTime).toBeGreaterThan(0);

    const b = await work(t.b, 'COMPLETED', { v: 'B' });
    expect(b.inputData).toEqual({ fromA: 'A' });
    expect(b.retryCount).toBe(1);
    await work(t.c, 'COMPLETED', { v: 'C' });
    const done = await api.workflowEventually(id, 'COMPLETED');
    expect(done.output).toEqual({ result: 'C' });
    expect(tasksOf(done, 'a')).toHaveLength(1);
    expect(tasksOf(done, 'b').map((x) => x.status)).toEqual(['FAILED', 'COMPLETED']);
    expect(await api.poll(t.a)).toBeUndefined();
  });

  it('answers 409 for a running run, naming its status', async () => {
    const t = await registerThree();
    const id = await api.start(t.name, { x: 1 });
    const body = await errorBody(await post(`/api/workflow/${id}/retry`), 409);
    expect(body.message).toBe(`Workflow ${id} is RUNNING; only a terminal workflow can be retried`);
  });

  it('answers 409 when nothing failed', async () => {
    const t = await registerThree();
    const id = await api.start(t.name, { x: 1 });
    await work(t.a);
    await work(t.b);
    await work(t.c);
    await api.workflowEventually(id, 'COMPLETED');
    const body = await errorBody(await post(`/api/workflow/${id}/retry`), 409);
    expect(body.message).toBe(
      'There are no retryable tasks! Use restart if you want to attempt entire workflow execution again.',
    );
  });

  it('answers 404 for an unknown run and 400 for a bad flag', async () => {
    const body = await errorBody(await post('/api/workflow/no-such-run/retry'), 404);
    expect(body.message).toBe('No such workflow found by id: no-such-run');
    const t = await registerThree();
    const id = await failedAtB(t);
    await errorBody(await post(`/api/workflow/${id}/retry?resumeSubworkflowTasks=maybe`), 400);
  });
});

describe('POST /api/workflow/{id}/restart', () => {
  it('starts the run over under the same id with its input, clearing what it did', async () => {
    const t = await registerThree();
    const id = await failedAtB(t);
    const oldA = tasksOf(await api.workflow(id), 'a')[0];

    await expectNoContent(await post(`/api/workflow/${id}/restart`));
    const fresh = await api.workflow(id);
    expect(fresh).toMatchObject({ workflowId: id, status: 'RUNNING', input: { x: 1 } });
    expect(fresh.reasonForIncompletion ?? '').toBe('');
    expect(fresh.endTime ?? 0).toBe(0);

    const a = await work(t.a, 'COMPLETED', { v: 'A2' });
    expect(a.taskId).not.toBe(oldA?.taskId);
    expect(a.inputData).toEqual({ x: 1 });
    await work(t.b, 'COMPLETED', { v: 'B2' });
    await work(t.c, 'COMPLETED', { v: 'C2' });
    const done = await api.workflowEventually(id, 'COMPLETED');
    expect(done.output).toEqual({ result: 'C2' });
    expect((done.tasks ?? []).map((x) => x.referenceTaskName)).toEqual(['a', 'b', 'c']);
    // The deleted pass's task is gone for good: its worker's late update finds nothing.
    const late = await api.send('POST', '/api/tasks', {
      taskId: oldA?.taskId,
      workflowInstanceId: id,
      status: 'COMPLETED',
    });
    await errorBody(late, 404);
  });

  it('runs the latest definition with useLatestDefinitions', async () => {
    const t = await registerThree();
    const id = await failedAtB(t);
    const other = uniqueName('v2_first');
    await api.registerWorkflow({ name: t.name, version: 2, tasks: [step(other, 'only')] });
    await expectNoContent(await post(`/api/workflow/${id}/restart?useLatestDefinitions=true`));
    expect((await api.workflow(id)).workflowVersion).toBe(2);
    await work(other);
    await api.workflowEventually(id, 'COMPLETED');
  });

  it('answers 404 when the latest definition is gone', async () => {
    const t = await registerThree();
    const id = await failedAtB(t);
    await api.send('DELETE', `/api/metadata/workflow/${t.name}/1`);
    const body = await errorBody(await post(`/api/workflow/${id}/restart?useLatestDefinitions=true`), 404);
    expect(body.message).toMatch(/No such workflow defined/);
    // Without the flag the run's own snapshot restarts it.
    await expectNoContent(await post(`/api/workflow/${id}/restart`));
  });

  it('answers 409 for a running run and for a completed run that is not restartable', async () => {
    const t = await registerThree({ restartable: false });
    const id = await api.start(t.name, { x: 1 });
    const running = await errorBody(await post(`/api/workflow/${id}/restart`), 409);
    expect(running.message).toBe(`Workflow ${id} is RUNNING; only a terminal workflow can be restarted`);
    await work(t.a);
    await work(t.b);
    await work(t.c);
    await api.workflowEventually(id, 'COMPLETED');
    const completed = await errorBody(await post(`/api/workflow/${id}/restart`), 409);
    expect(completed.message).toBe(
      `Workflow ${id} is COMPLETED and its definition ${t.name} version 1 is not restartable`,
    );
    // A failed run of a non-restartable definition may still be restarted.
    const failed = await failedAtB(t);
    await expectNoContent(await post(`/api/workflow/${failed}/restart`));
  });

  it('answers 404 for an unknown run and 400 for a bad flag', async () => {
    await errorBody(await post('/api/workflow/no-such-run/restart'), 404);
    const t = await registerThree();
    const id = await failedAtB(t);
    await errorBody(await post(`/api/workflow/${id}/restart?useLatestDefinitions=7`), 400);
  });
});

describe('POST /api/workflow/{id}/rerun', () => {
  it('reruns from a middle task with new input, deleting what came after it', async () => {
    const t = await registerThree();
    const id = await api.start(t.name, { x: 1 });
    await work(t.a, 'COMPLETED', { v: 'A' });
    const oldB = await work(t.b, 'COMPLETED', { v: 'B' });
    await work(t.c, 'COMPLETED', { v: 'C' });
    await api.workflowEventually(id, 'COMPLETED');

    const answer = await post(`/api/workflow/${id}/rerun`, {
      reRunFromWorkflowId: id,
      reRunFromTaskId: oldB.taskId,
      taskInput: { fromA: 'override' },
    });
    expect(await expectText(answer)).toBe(id);
    const rerunning = await api.workflow(id);
    expect(rerunning.status).toBe('RUNNING');
    expect((rerunning.tasks ?? []).map((x) => x.referenceTaskName)).toEqual(['a', 'b']);

    const b = await work(t.b, 'COMPLETED', { v: 'B2' });
    expect(b.taskId).not.toBe(oldB.taskId);
    expect(b.inputData).toEqual({ fromA: 'override' });
    expect(b.retryCount).toBe(0);
    const c = await work(t.c, 'COMPLETED', { v: 'C2' });
    expect(c.inputData).toEqual({ fromB: 'B2' });
    const done = await api.workflowEventually(id, 'COMPLETED');
    expect(done.output).toEqual({ result: 'C2' });
    expect((done.tasks ?? []).map((x) => x.referenceTaskName)).toEqual(['a', 'b', 'c']);
    expect(await api.poll(t.a)).toBeUndefined();
  });

  it('reruns from the start with a new input and correlation id', async () => {
    const t = await registerThree();
    const id = await failedAtB(t);
    const answer = await post(`/api/workflow/${id}/rerun`, {
      workflowInput: { x: 2 },
      correlationId: 'again',
    });
    expect(await expectText(answer)).toBe(id);
    const run = await api.workflow(id);
    expect(run).toMatchObject({ status: 'RUNNING', input: { x: 2 }, correlationId: 'again' });
    const a = await work(t.a);
    expect(a.inputData).toEqual({ x: 2 });
  });

  it('treats an empty body and empty ids as a rerun from the start', async () => {
    const t = await registerThree();
    const id = await failedAtB(t);
    expect(await expectText(await post(`/api/workflow/${id}/rerun`))).toBe(id);
    expect((await api.workflow(id)).input).toEqual({ x: 1 });
    await work(t.a);
    await work(t.b);
    await work(t.c);
    await api.workflowEventually(id, 'COMPLETED');
    const again = await post(`/api/workflow/${id}/rerun`, { reRunFromTaskId: '', workflowInput: null });
    expect(await expectText(again)).toBe(id);
  });

  it('answers 409 for a running run, 400 for an unknown task, 404 for an unknown run', async () => {
    const t = await registerThree();
    const id = await api.start(t.name, { x: 1 });
    const running = await errorBody(await post(`/api/workflow/${id}/rerun`, {}), 409);
    expect(running.message).toBe(`Workflow ${id} is RUNNING; only a terminal workflow can be rerun`);
    await work(t.a);
    await work(t.b, 'FAILED');
    await api.workflowEventually(id, 'FAILED');
    const unknownTask = await errorBody(
      await post(`/api/workflow/${id}/rerun`, { reRunFromTaskId: 'no-such-task' }),
      400,
    );
    expect(unknownTask.message).toBe('Task no-such-task not found');
    await errorBody(await post('/api/workflow/no-such-run/rerun', {}), 404);
  });

  it('answers 400 for malformed JSON and mistyped fields', async () => {
    const t = await registerThree();
    const id = await failedAtB(t);
    const malformed = await errorBody(await post(`/api/workflow/${id}/rerun`, '{"reRunFromTaskId":'), 400);
    expect(malformed.message).toMatch(/malformed JSON/i);
    await errorBody(await post(`/api/workflow/${id}/rerun`, []), 400);
    for (const body of [
      { reRunFromTaskId: 5 },
      { workflowInput: 'x' },
      { taskInput: [1] },
      { correlationId: {} },
    ]) {
      const answer = await errorBody(await post(`/api/workflow/${id}/rerun`, body), 400);
      expect(answer.message).toMatch(/RerunWorkflowRequest/);
    }
    expect((await api.workflow(id)).status).toBe('FAILED');
  });
});

describe('sub-workflows', () => {
  interface Family {
    parent: string;
    pre: string;
    inner: string;
    post: string;
  }

  /** parent: pre -> SUB_WORKFLOW(child: inner) -> post. */
  async function registerFamily(): Promise<Family> {
    const f: Family = {
      parent: uniqueName('parent'),
      pre: uniqueName('pre'),
      inner: uniqueName('inner'),
      post: uniqueName('post'),
    };
    const child = uniqueName('child');
    await api.registerWorkflow({
      name: child,
      version: 1,
      tasks: [step(f.inner, 'inner', { x: ref('workflow.input.x') })],
      outputParameters: { got: ref('inner.output.v') },
    });
    await api.registerWorkflow({
      name: f.parent,
      version: 1,
      tasks: [
        step(f.pre, 'pre'),
        {
          name: child,
          taskReferenceName: 'sub',
          type: 'SUB_WORKFLOW',
          retryCount: 0,
          subWorkflowParam: { name: child, version: 1 },
          inputParameters: { x: ref('pre.output.x') },
        },
        step(f.post, 'post', { fromChild: ref('sub.output.got') }),
      ],
    });
    return f;
  }

  /** A parent failed because its child's task failed; answers both ids. */
  async function failedFamily(f: Family): Promise<{ parent: string; child: string }> {
    const parent = await api.start(f.parent);
    await work(f.pre, 'COMPLETED', { x: 3 });
    await work(f.inner, 'FAILED');
    const run = await api.workflowEventually(parent, 'FAILED');
    const child = tasksOf(run, 'sub')[0]?.subWorkflowId ?? '';
    expect((await api.workflow(child)).status).toBe('FAILED');
    return { parent, child };
  }

  it('retry without resumeSubworkflowTasks starts a new child', async () => {
    const f = await registerFamily();
    const { parent, child } = await failedFamily(f);
    await expectNoContent(await post(`/api/workflow/${parent}/retry`));
    const subs = await api.workflowUntil(parent, (run) => {
      const found = tasksOf(run, 'sub');
      return found.length === 2 && found[1]?.subWorkflowId ? found : undefined;
    });
    const newChild = subs[1]?.subWorkflowId ?? '';
    expect(newChild).not.toBe(child);
    expect((await api.workflow(child)).status).toBe('FAILED');
    const inner = await work(f.inner, 'COMPLETED', { v: 'ok' });
    expect(inner.workflowInstanceId).toBe(newChild);
    const post2 = await work(f.post);
    expect(post2.inputData).toEqual({ fromChild: 'ok' });
    await api.workflowEventually(parent, 'COMPLETED');
  });

  it('retry with resumeSubworkflowTasks retries the failed child itself', async () => {
    const f = await registerFamily();
    const { parent, child } = await failedFamily(f);
    await expectNoContent(await post(`/api/workflow/${parent}/retry?resumeSubworkflowTasks=true`));
    const run = await api.workflow(parent);
    expect(run.status).toBe('RUNNING');
    expect(tasksOf(run, 'sub').map((x) => x.status)).toEqual(['IN_PROGRESS']);
    expect((await api.workflow(child)).status).toBe('RUNNING');
    const inner = await work(f.inner, 'COMPLETED', { v: 'resumed' });
    expect(inner.workflowInstanceId).toBe(child);
    const post2 = await work(f.post);
    expect(post2.inputData).toEqual({ fromChild: 'resumed' });
    await api.workflowEventually(parent, 'COMPLETED');
    expect((await api.workflow(child)).status).toBe('COMPLETED');
  });

  it('retrying the child directly revives its parent', async () => {
    const f = await registerFamily();
    const { parent, child } = await failedFamily(f);
    await expectNoContent(await post(`/api/workflow/${child}/retry`));
    const run = await api.workflow(parent);
    expect(run.status).toBe('RUNNING');
    expect(run.reasonForIncompletion ?? '').toBe('');
    expect(tasksOf(run, 'sub').map((x) => x.status)).toEqual(['IN_PROGRESS']);
    await work(f.inner, 'COMPLETED', { v: 'direct' });
    await work(f.post);
    await api.workflowEventually(parent, 'COMPLETED');
  });

  it('rerun from a task inside the child reruns it there and revives the parent', async () => {
    const f = await registerFamily();
    const { parent, child } = await failedFamily(f);
    const failedInner = tasksOf(await api.workflow(child), 'inner')[0];
    const answer = await post(`/api/workflow/${parent}/rerun`, {
      reRunFromTaskId: failedInner?.taskId,
      taskInput: { x: 'again' },
    });
    expect(await expectText(answer)).toBe(parent);
    expect((await api.workflow(parent)).status).toBe('RUNNING');
    const inner = await work(f.inner, 'COMPLETED', { v: 'rerun' });
    expect(inner).toMatchObject({ workflowInstanceId: child, inputData: { x: 'again' } });
    expect(inner.taskId).not.toBe(failedInner?.taskId);
    const post2 = await work(f.post);
    expect(post2.inputData).toEqual({ fromChild: 'rerun' });
    await api.workflowEventually(parent, 'COMPLETED');
    expect(tasksOf(await api.workflow(child), 'inner')).toHaveLength(1);
  });
});
