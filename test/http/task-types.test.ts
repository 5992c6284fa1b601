/**
 * Task types over loopback: a Conductor system type this service does not run registers and reads
 * back (the official SDK registers an LLM_CHAT_COMPLETE task to read it back), a run that reaches
 * it fails with the reason naming the type, and the run as read back carries no internal field.
 */
import { describe, expect, it } from 'vitest';
import { type Json, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { type ApiWorkflow, ExecutionApi, expectJson } from './execution-api.ts';

const server = useTestServer();
const api = new ExecutionApi(server);

const llmWorkflow = (name: string): Json => ({
  name,
  version: 1,
  tasks: [
    {
      name: 'chat',
      taskReferenceName: 'chat',
      type: 'LLM_CHAT_COMPLETE',
      inputParameters: {
        llmProvider: 'openai',
        model: 'gpt-4o',
        messages: [{ role: 'user', message: 'hi' }],
      },
    },
  ],
});

describe('a Conductor system type this service does not run', () => {
  it('registers an LLM_CHAT_COMPLETE task and reads it back', async () => {
    const name = uniqueName('llm');
    await api.registerWorkflow(llmWorkflow(name));
    const def = await expectJson<{ tasks: { type: string }[] }>(
      await api.get(`/api/metadata/workflow/${name}`),
    );
    expect(def.tasks.map((t) => t.type)).toEqual(['LLM_CHAT_COMPLETE']);
  });

  it('fails a run that reaches it, naming the type; the failed run shows no internal fields', async () => {
    const name = uniqueName('llm_run');
    await api.registerWorkflow(llmWorkflow(name));
    const id = await api.start(name);
    const run = await api.workflowEventually(id, 'FAILED');
    expect(run.tasks.map((t) => [t.status, t.reasonForIncompletion])).toEqual([
      ['FAILED_WITH_TERMINAL_ERROR', 'Task type LLM_CHAT_COMPLETE is not supported by this service'],
    ]);
    const raw = await expectJson<Record<string, unknown>>(await api.get(`/api/workflow/${id}`));
    for (const internal of ['endedByEngine', 'rev', 'seq', 'wakeAt', 'failedTaskId'])
      expect(raw).not.toHaveProperty(internal);
    const [task] = (raw as unknown as ApiWorkflow).tasks;
    for (const internal of ['rev', 'firstScheduledTime', 'waitTimeout', 'parentTaskId'])
      expect(task).not.toHaveProperty(internal);
  });
});
