// Event handlers end to end over HTTP (both transports): a workflow's EVENT task publishes to a
// `conductor:` sink, and every handler action (start_workflow, complete_task, fail_task,
// terminate_workflow, update_workflow_variables, push_workflow_message) acts on runs with
// parameters templated over the event's payload; conditions skip or fail; executions are listed.
import { describe, expect, it } from 'vitest';
import type { EventExecution } from '../../lib/events/model.ts';
import { type Json, ref, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';
import {
  type ApiWorkflow,
  ExecutionApi,
  eventually,
  expectEmptyOk,
  expectJson,
  expectText,
} from './execution-api.ts';

const eventTask = (sink: string, inputParameters: Json = {}, extra: Json = {}): Json => ({
  name: 'publish',
  taskReferenceName: 'publish',
  type: 'EVENT',
  sink,
  inputParameters,
  ...extra,
});

const waitTask = { name: 'wait', taskReferenceName: 'wait', type: 'WAIT' };

describe('event handler actions through an EVENT task', () => {
  const server = useTestServer({ 'service.workflow-message-queue.enabled': true });
  const api = new ExecutionApi(server);

  /** A handler on a fresh sink, and a sender workflow whose EVENT task publishes its input there. */
  async function wire(actions: Json[], extra: Json = {}) {
    const sender = uniqueName('sender');
    const sink = uniqueName('sink');
    const handler = uniqueName('handler');
    const event = `conductor:${sender}:${sink}`;
    await expectEmptyOk(
      await api.send('POST', '/api/event', { name: handler, event, active: true, actions, ...extra }),
    );
    await api.registerWorkflow({
      name: sender,
      version: 1,
      tasks: [
        eventTask(`conductor:${sink}`, {
          target: ref('workflow.input.target'),
          data: ref('workflow.input.data'),
        }),
      ],
    });
    const send = async (input: Json) => {
      const id = await api.start(sender, input);
      return api.workflowEventually(id, 'COMPLETED');
    };
    // Generous: a handler's first condition starts the script sandbox's worker thread.
    const executions = (count: number) =>
      eventually(async () => {
        const list = await expectJson<EventExecution[]>(await api.get(`/api/event/execution/${handler}`));
        expect(list.filter((e) => e.status !== 'IN_PROGRESS')).toHaveLength(count);
        return list;
      }, 20_000);
    return { handler, event, send, executions };
  }

  async function waitingRun(tasks: Json[] = [waitTask], extra: Json = {}): Promise<string> {
    const name = uniqueName('target');
    await api.registerWorkflow({ name, version: 1, tasks, ...extra });
    const id = await api.start(name);
    await api.workflowUntil(id, (run) => (run.tasks[0]?.status === 'IN_PROGRESS' ? run : undefined));
    return id;
  }

  it('publishes the input with the run’s fields and completes with event_produced', async () => {
    const { event, send } = await wire([
      { action: 'terminate_workflow', terminate_workflow: { workflowId: 'none' } },
    ]);
    const run = await send({ data: { n: 1 } });
    const task = run.tasks[0];
    expect(task?.status).toBe('COMPLETED');
    expect(task?.outputData).toMatchObject({
      data: { n: 1 },
      workflowInstanceId: run.workflowId,
      workflowType: run.workflowName,
      workflowVersion: 1,
      event_produced: event,
    });
  });

  it('start_workflow starts the workflow with templated input, the event keys, and the event name', async () => {
    const target = uniqueName('started');
    await api.registerWorkflow({ name: target, version: 1, tasks: [waitTask] });
    const { event, send, executions } = await wire([
      {
        action: 'start_workflow',
        start_workflow: {
          name: target,
          correlationId: ref('data.order'),
          input: { order: ref('data.order') },
        },
      },
    ]);
    const sender = await send({ data: { order: 'o-17' } });
    const [execution] = await executions(1);
    expect(execution).toMatchObject({ status: 'COMPLETED', action: 'start_workflow', event });
    const started = await api.workflow(String(execution?.output?.workflowId));
    expect(started.workflowName).toBe(target);
    expect(started.correlationId).toBe('o-17');
    expect(started.input).toEqual({
      order: 'o-17',
      'conductor.event.messageId': sender.tasks[0]?.taskId,
      'conductor.event.name': event,
    });
    expect((started as ApiWorkflow & { event?: string }).event).toBe(event);
  });

  it('complete_task completes the waiting task by workflow id and reference, with the templated output', async () => {
    const targetId = await waitingRun();
    const { send } = await wire([
      {
        action: 'complete_task',
        complete_task: { workflowId: ref('target'), taskRefName: 'wait', output: { note: ref('data.note') } },
      },
    ]);
    await send({ target: targetId, data: { note: 'shipped' } });
    const done = await api.workflowEventually(targetId, 'COMPLETED');
    expect(done.tasks[0]?.outputData).toMatchObject({
      note: 'shipped',
      'conductor.event.name': expect.any(String),
    });
  });

  it('fail_task fails the waiting task with the reason, and so the run', async () => {
    const targetId = await waitingRun();
    const { send } = await wire([
      {
        action: 'fail_task',
        fail_task: { workflowId: ref('target'), taskRefName: 'wait', reasonForIncompletion: ref('data.why') },
      },
    ]);
    await send({ target: targetId, data: { why: 'out of stock' } });
    const failed = await api.workflowEventually(targetId, 'FAILED');
    expect(failed.tasks[0]?.status).toBe('FAILED');
    expect(failed.reasonForIncompletion).toContain('out of stock');
  });

  it('terminate_workflow terminates the run with the reason', async () => {
    const targetId = await waitingRun();
    const { send } = await wire([
      {
        action: 'terminate_workflow',
        terminate_workflow: { workflowId: ref('target'), terminationReason: ref('data.why') },
      },
    ]);
    await send({ target: targetId, data: { why: 'cancelled by customer' } });
    const ended = await api.workflowEventually(targetId, 'TERMINATED');
    expect(ended.reasonForIncompletion).toBe('cancelled by customer');
  });

  it('update_workflow_variables sets variables, appending to lists with appendArray', async () => {
    const targetId = await waitingRun([waitTask], { variables: { seen: ['a'] } });
    const { send, executions } = await wire([
      {
        action: 'update_workflow_variables',
        update_workflow_variables: {
          workflowId: ref('target'),
          variables: { seen: [ref('data.id')], last: ref('data.id') },
          appendArray: true,
        },
      },
    ]);
    await send({ target: targetId, data: { id: 'b' } });
    await executions(1);
    const run = await api.workflow(targetId);
    expect((run as ApiWorkflow & { variables: Json }).variables).toEqual({ seen: ['a', 'b'], last: 'b' });
  });

  it('push_workflow_message pushes the payload, or the templated message, into a running workflow’s queue', async () => {
    const targetId = await waitingRun([
      waitTask,
      {
        name: 'pull',
        taskReferenceName: 'pull',
        type: 'PULL_WORKFLOW_MESSAGES',
        inputParameters: { batchSize: 5 },
      },
    ]);
    const { send, executions } = await wire([
      { action: 'push_workflow_message', push_workflow_message: { workflowId: ref('target') } },
      {
        action: 'push_workflow_message',
        push_workflow_message: { workflowId: ref('target'), message: { only: ref('data') } },
      },
    ]);
    await send({ target: targetId, data: { sku: 'x1' } });
    expect((await executions(2)).map((e) => e.status)).toEqual(['COMPLETED', 'COMPLETED']);
    // Both messages wait in the queue while the run waits; then one pull takes them, oldest first.
    await expectText(await api.send('POST', `/api/tasks/${targetId}/wait/COMPLETED`, {}));
    const done = await api.workflowEventually(targetId, 'COMPLETED');
    const payloads =
      (done.tasks[1]?.outputData as { messages: { payload: Json }[] } | undefined)?.messages.map(
        (m) => m.payload,
      ) ?? [];
    expect(payloads).toHaveLength(2);
    expect(payloads[0]).toMatchObject({
      target: targetId,
      data: { sku: 'x1' },
      workflowInstanceId: expect.any(String),
    });
    expect(payloads[1]).toEqual({ only: { sku: 'x1' } });
  });

  it('runs the actions only when the condition holds, records SKIPPED otherwise, FAILED for a broken one', async () => {
    const targetId = await waitingRun();
    const { send, executions } = await wire(
      [{ action: 'complete_task', complete_task: { workflowId: ref('target'), taskRefName: 'wait' } }],
      { condition: '$.data.go === true' },
    );
    await send({ target: targetId, data: { go: false } });
    expect((await executions(1)).map((e) => e.status)).toEqual(['SKIPPED']);
    expect((await api.workflow(targetId)).status).toBe('RUNNING');
    await send({ target: targetId, data: { go: true } });
    expect((await executions(2)).map((e) => e.status).sort()).toEqual(['COMPLETED', 'SKIPPED']);
    await api.workflowEventually(targetId, 'COMPLETED');

    const broken = await wire([{ action: 'terminate_workflow', terminate_workflow: { workflowId: 'x' } }], {
      condition: '$.data.missing.field',
    });
    await broken.send({ data: {} });
    const [failed] = await broken.executions(1);
    expect(failed?.status).toBe('FAILED');
    expect(failed?.statusDescription).toContain('Condition');
  });

  it('records a FAILED execution for an action on an unknown workflow', async () => {
    const { send, executions } = await wire([
      { action: 'complete_task', complete_task: { workflowId: ref('target'), taskRefName: 'wait' } },
    ]);
    await send({ target: 'no-such-run' });
    const [execution] = await executions(1);
    expect(execution).toMatchObject({ status: 'FAILED', action: 'complete_task' });
    expect(execution?.statusDescription).toContain('no-such-run');
  });

  it('counts each handler’s messages for the event monitor', async () => {
    const { handler, event, send, executions } = await wire([
      { action: 'terminate_workflow', terminate_workflow: { workflowId: 'none' } },
      { action: 'terminate_workflow', terminate_workflow: { workflowId: 'none' } },
    ]);
    await send({});
    await send({});
    await executions(4);
    const monitor = await expectJson<{ results: Json[]; totalHits: number }>(
      await api.get('/api/event/execution'),
    );
    expect(monitor.results).toContainEqual({
      name: handler,
      event,
      active: true,
      numberOfActions: 2,
      numberOfMessages: 2,
    });
    expect(monitor.totalHits).toBe(monitor.results.length);
    // `from` is a time window in ms (the UI's 5 minutes); -1 is the UI's "All time".
    for (const query of ['?from=300000', '?from=-1', '']) {
      const recent = await expectJson<EventExecution[]>(
        await api.get(`/api/event/execution/${handler}${query}`),
      );
      expect(recent, query).toHaveLength(4);
    }
  });

  it('answers 404 for the executions of an unknown handler and 400 for a window that is not a number', async () => {
    await errorBody(await api.get(`/api/event/execution/${uniqueName('none')}`), 404);
    const { handler } = await wire([
      { action: 'terminate_workflow', terminate_workflow: { workflowId: 'x' } },
    ]);
    await errorBody(await api.get(`/api/event/execution/${handler}?from=abc`), 400);
    await errorBody(await api.get(`/api/event/execution/${handler}?from=1.5`), 400);
  });

  it('fails the task, saying why, for a sink the service cannot reach or does not know', async () => {
    const name = uniqueName('unreachable');
    for (const [sink, status, reason] of [
      ['sqs:nowhere', 'FAILED', 'cannot be reached'],
      ['kafka:orders', 'FAILED_WITH_TERMINAL_ERROR', "Sink type 'kafka' is not available"],
      ['sqs:', 'FAILED_WITH_TERMINAL_ERROR', 'names no queue'],
    ]) {
      await api.registerWorkflow({
        name,
        version: 1,
        tasks: [eventTask(String(sink), {}, { retryCount: 0 })],
      });
      const failed = await api.workflowEventually(await api.start(name), 'FAILED');
      expect(failed.tasks[0]?.status).toBe(status);
      expect(failed.tasks[0]?.reasonForIncompletion).toContain(reason);
    }
  });

  it('stays IN_PROGRESS after publishing with asyncComplete', async () => {
    const name = uniqueName('async');
    await api.registerWorkflow({
      name,
      version: 1,
      tasks: [eventTask('conductor', {}, { asyncComplete: true })],
    });
    const id = await api.start(name);
    const task = await api.workflowUntil(id, (run) =>
      run.tasks[0]?.outputData && 'event_produced' in run.tasks[0].outputData ? run.tasks[0] : undefined,
    );
    expect(task.status).toBe('IN_PROGRESS');
    expect(task.outputData.event_produced).toBe(`conductor:${name}:publish`);
  });
});
