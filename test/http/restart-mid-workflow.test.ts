/**
 * A run survives a restart of the local server in its default persistent mode (the embedded
 * store under service.local.data-dir): the run, its finished task and the next queued task are read back
 * from disk, and timers armed before the restart still fire after it - a task handed back with
 * callbackAfterSeconds comes back into the queue, and a run's stored wake-up (here a response
 * timeout) is restored at start and times the task out. Real time is used, kept to a second or two.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { chainedWorkflow, ExecutionApi } from './execution-api.ts';

const dirs: string[] = [];
const servers: TestServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'conductor-restart-'));
  dirs.push(dir);
  return dir;
}

/** A server on the embedded on-disk store, the local default, on a free port. */
async function persistentServer(dataDir: string): Promise<ExecutionApi> {
  const server = await startTestServer({ 'service.store': 'embedded', 'service.local.data-dir': dataDir });
  servers.push(server);
  return new ExecutionApi(server);
}

/** Closes the newest server (a clean stop: in-flight decides finish, timers are dropped). */
async function stopServer(): Promise<void> {
  await servers.pop()?.close();
}

async function registerChain(api: ExecutionApi, taskDef?: Record<string, unknown>) {
  const flow = { name: uniqueName('restart'), first: uniqueName('first'), second: uniqueName('second') };
  if (taskDef) await api.registerTaskDefs([{ name: flow.first, ...taskDef }]);
  await api.registerWorkflow(chainedWorkflow(flow.name, flow.first, flow.second));
  return flow;
}

describe('restarting the local server in the middle of a run', () => {
  it('picks the run up where it stopped: the second task is pollable and the run completes', async () => {
    const dataDir = freshDataDir();
    const before = await persistentServer(dataDir);
    const flow = await registerChain(before);
    const id = await before.start(flow.name, { x: 1 });
    await before.update(await before.pollEventually(flow.first), 'COMPLETED', { value: 'before-restart' });
    await stopServer();

    const after = await persistentServer(dataDir);
    const second = await after.pollEventually(flow.second);
    expect(second).toMatchObject({ workflowInstanceId: id, inputData: { fromFirst: 'before-restart' } });
    await after.update(second, 'COMPLETED', { result: 'after-restart' });
    const run = await after.workflowEventually(id, 'COMPLETED');
    expect(run.output).toEqual({ result: 'after-restart' });
    expect(run.tasks.map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['first', 'COMPLETED'],
      ['second', 'COMPLETED'],
    ]);
  });

  it('hands a task out again after the restart once its callbackAfterSeconds have passed', async () => {
    const dataDir = freshDataDir();
    const before = await persistentServer(dataDir);
    const flow = await registerChain(before);
    await before.start(flow.name);
    const polled = await before.pollEventually(flow.first);
    const handedBackAt = Date.now();
    await before.update(polled, 'IN_PROGRESS', { step: 1 }, { callbackAfterSeconds: 1 });
    await stopServer();

    const after = await persistentServer(dataDir);
    const again = await after.pollEventually(flow.first);
    expect(Date.now() - handedBackAt).toBeGreaterThanOrEqual(1000);
    expect(again).toMatchObject({ taskId: polled.taskId, pollCount: 2, outputData: { step: 1 } });
  });

  it('restores the stored wake-up, so a response timeout armed before the restart fires after it', async () => {
    const dataDir = freshDataDir();
    const before = await persistentServer(dataDir);
    const flow = await registerChain(before, {
      retryCount: 1,
      retryDelaySeconds: 0,
      timeoutSeconds: 60,
      responseTimeoutSeconds: 1,
    });
    const id = await before.start(flow.name);
    const polled = await before.pollEventually(flow.first);
    // The worker dies here: no update ever comes. Only a decide at the deadline can notice.
    await stopServer();

    const after = await persistentServer(dataDir);
    const retry = await after.pollEventually(flow.first);
    expect(retry).toMatchObject({ workflowInstanceId: id, retryCount: 1 });
    expect(retry.taskId).not.toBe(polled.taskId);
    const run = await after.workflow(id);
    expect(run.tasks.find((t) => t.taskId === polled.taskId)).toMatchObject({ status: 'TIMED_OUT' });
  });
});
