/**
 * Large payloads end to end (issue 7 item 9): a task returning 2 MB completes, on the memory store
 * and on the default on-disk store (embedded dynalite, whose items cap at 400 KB like DynamoDB's,
 * with payloads in files); its output reads back whole from GET /api/workflow/{id} and
 * GET /api/tasks/{id}, the next task's templated input sees it, and the workflow output over the
 * threshold is kept externally with its path shown.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ref, uniqueName, worker } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { type ApiTask, ExecutionApi, expectJson } from './execution-api.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'conductor-payloads-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const TWO_MB = 2 * 1024 * 1024;
const CONTENT_PATH = /^sha256\/[0-9a-f]{64}\.json$/;

describe.each([
  ['the memory store', { 'service.store': 'memory' }],
  ['the embedded store', { 'service.store': 'embedded', 'service.local.data-dir': dataDir }],
  ['the dynalite store', { 'service.store': 'dynamodb', 'service.local.data-dir': dataDir }],
])('a 2 MB task output on %s', (_name, overrides) => {
  const server = useTestServer(overrides);
  const api = new ExecutionApi(server);

  it('completes, reads back whole and feeds the next task', async () => {
    const name = uniqueName('big');
    const [first, second] = [uniqueName('first'), uniqueName('second')];
    await api.registerWorkflow({
      name,
      version: 1,
      tasks: [
        worker('first', { name: first }),
        worker('second', { name: second, inputParameters: { big: ref('first.output.blob') } }),
      ],
      outputParameters: { blob: ref('first.output.blob'), size: ref('second.output.size') },
    });
    const blob = 'x'.repeat(TWO_MB);
    const id = await api.start(name, {});

    const firstTask = await api.pollEventually(first);
    await api.update(firstTask, 'COMPLETED', { blob });

    const secondTask = await api.pollEventually(second);
    expect(secondTask.inputData.big).toBe(blob);
    expect(secondTask.externalInputPayloadStoragePath).toMatch(CONTENT_PATH);

    const readTask = await expectJson<ApiTask>(await api.get(`/api/tasks/${firstTask.taskId}`));
    expect(readTask.outputData.blob).toBe(blob);
    expect(readTask.externalOutputPayloadStoragePath).toMatch(CONTENT_PATH);

    await api.update(secondTask, 'COMPLETED', { size: (secondTask.inputData.big as string).length });
    const run = await api.workflowEventually(id, 'COMPLETED');
    expect(run.output).toEqual({ blob, size: TWO_MB });
    expect(run.externalOutputPayloadStoragePath).toMatch(CONTENT_PATH);
    expect(run.externalInputPayloadStoragePath).toBeUndefined();
    expect(run.tasks[0]?.outputData.blob).toBe(blob);
    expect(run.tasks[1]?.inputData.big).toBe(blob);
    // The payload reads back through a READ location too, as Conductor's clients fetch it.
    const path = run.externalOutputPayloadStoragePath as string;
    const location = await expectJson<{ uri: string; path: string }>(
      await api.get(
        `/api/workflow/externalstoragelocation?path=${path}&operation=READ&payloadType=WORKFLOW_OUTPUT`,
      ),
    );
    expect(location.path).toBe(path);
    expect(await expectJson(await server.fetch(location.uri))).toEqual({ blob, size: TWO_MB });
  });

  it('takes a worker output uploaded through a WRITE location', async () => {
    const name = uniqueName('upload');
    const task = uniqueName('task');
    await api.registerWorkflow({ name, version: 1, tasks: [worker('only', { name: task })] });
    const id = await api.start(name, {});
    const polled = await api.pollEventually(task);
    const location = await expectJson<{ uri: string; path: string }>(
      await api.get('/api/tasks/externalstoragelocation?operation=WRITE&payloadType=TASK_OUTPUT'),
    );
    const output = { rows: Array.from({ length: 20_000 }, (_, i) => ({ i, label: `row ${i}` })) };
    const put = await server.fetch(location.uri, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(output),
    });
    expect(put.status, await put.text()).toBe(200);
    await api.update(polled, 'COMPLETED', {}, { externalOutputPayloadStoragePath: location.path });
    const run = await api.workflowEventually(id, 'COMPLETED');
    expect(run.tasks[0]?.outputData).toEqual(output);
    expect(run.output).toEqual(output);
  });
});
