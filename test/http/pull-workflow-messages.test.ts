// PULL_WORKFLOW_MESSAGES over HTTP (both transports): the event loop (a pull inside a DO_WHILE)
// end to end, each pushed message handed to exactly one pull, and a non-blocking pull.
import { describe, expect, it } from 'vitest';
import type { WorkflowMessage } from '../../lib/messages/ports.ts';
import { loop, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { type ApiWorkflow, ExecutionApi, eventually, expectText } from './execution-api.ts';

const pull = (ref: string, inputParameters: Record<string, unknown>) => ({
  name: ref,
  taskReferenceName: ref,
  type: 'PULL_WORKFLOW_MESSAGES',
  inputParameters,
});

const STOP_CONDITION =
  "if ($.pull['messages'].some(function (m) { return m.payload.stop === true; })) { false; } else { true; }";

const pulled = (run: ApiWorkflow): WorkflowMessage[] =>
  run.tasks
    .filter((t) => t.taskType === 'PULL_WORKFLOW_MESSAGES' && t.status === 'COMPLETED')
    .flatMap((t) => (t.outputData as { messages: WorkflowMessage[] }).messages);

describe('PULL_WORKFLOW_MESSAGES', () => {
  const server = useTestServer({ 'service.workflow-message-queue.enabled': true });
  const api = new ExecutionApi(server);
  const push = async (id: string, body: unknown) =>
    expectText(await api.send('POST', `/api/workflow/${id}/messages`, body));

  it('runs the event loop: waits, takes each message once, oldest first, until told to stop', async () => {
    const name = uniqueName('event-loop');
    await api.registerWorkflow({
      name,
      version: 1,
      tasks: [loop([pull('pull', { batchSize: 2 })], STOP_CONDITION)],
    });
    const id = await api.start(name);
    const first = await api.workflow(id);
    expect(first.status).toBe('RUNNING');
    expect(first.tasks.find((t) => t.taskType === 'PULL_WORKFLOW_MESSAGES')?.status).toBe('IN_PROGRESS');
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(await push(id, { n }));
    await eventually(async () => expect(pulled(await api.workflow(id))).toHaveLength(5));
    ids.push(await push(id, { stop: true }));
    const done = await api.workflowEventually(id, 'COMPLETED');
    const messages = pulled(done);
    expect(messages.map((m) => m.id)).toEqual(ids);
    expect(messages.slice(0, 5).map((m) => m.payload)).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
    expect(messages.every((m) => m.workflowId === id && typeof m.receivedAt === 'string')).toBe(true);
    for (const t of done.tasks.filter((t) => t.taskType === 'PULL_WORKFLOW_MESSAGES')) {
      const out = t.outputData as { messages: unknown[]; count: number };
      expect(out.count).toBe(out.messages.length);
      expect(out.count).toBeLessThanOrEqual(2);
    }
  });

  it('completes a non-blocking pull of an empty queue with no messages', async () => {
    const name = uniqueName('non-blocking');
    await api.registerWorkflow({
      name,
      version: 1,
      tasks: [pull('peek', { blocking: false, batchSize: 500 })],
    });
    const id = await api.start(name);
    const done = await api.workflowEventually(id, 'COMPLETED');
    expect(done.tasks[0]?.outputData).toEqual({ messages: [], count: 0 });
  });
});
