/**
 * The local server's default store is on disk (the embedded store under service.local.data-dir):
 * definitions registered before a restart are there after it, whether the server is restarted
 * in-process or the real `npm start` entry is stopped with SIGTERM (or killed with SIGKILL) and
 * started again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { taskDef, workflowDef } from '../helpers/fixtures.ts';
import { jsonRequest, startTestServer, type TestServer } from '../helpers/server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'conductor-persist-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function expectOk(response: Response): Promise<string> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text;
}

describe('the default on-disk store', () => {
  async function persistentServer(dataDir: string): Promise<TestServer> {
    const server = await startTestServer({ 'service.store': 'embedded', 'service.local.data-dir': dataDir });
    cleanups.push(() => server.close());
    return server;
  }

  it('keeps workflow and task definitions across a server restart on the same data dir', async () => {
    const dataDir = freshDataDir();
    const workflow = workflowDef({ description: 'survives restarts' });
    const task = taskDef({ retryCount: 7 });

    const first = await persistentServer(dataDir);
    await expectOk(await fetch(`${first.url}/api/metadata/workflow`, jsonRequest('POST', workflow)));
    await expectOk(await fetch(`${first.url}/api/metadata/taskdefs`, jsonRequest('POST', [task])));
    await first.close();

    const second = await persistentServer(dataDir);
    const storedWorkflow = JSON.parse(
      await expectOk(await fetch(`${second.url}/api/metadata/workflow/${workflow.name}`)),
    ) as Record<string, unknown>;
    expect(storedWorkflow).toMatchObject({
      name: workflow.name,
      description: 'survives restarts',
      version: 1,
    });
    const storedTask = JSON.parse(
      await expectOk(await fetch(`${second.url}/api/metadata/taskdefs/${task.name}`)),
    ) as Record<string, unknown>;
    expect(storedTask).toMatchObject({ name: task.name, retryCount: 7 });
  });

  it('starts empty on a fresh data dir', async () => {
    const server = await persistentServer(freshDataDir());
    expect(JSON.parse(await expectOk(await fetch(`${server.url}/api/metadata/workflow`)))).toEqual([]);
  });
});

interface Started {
  child: ChildProcess;
  url: string;
  exit: Promise<number | null>;
}

/** Starts `npm start`'s entry on a free port and waits for the line that names the real port. */
function startEntry(dataDir: string): Promise<Started> {
  // Only what the test sets: no SERVICE_* or PORT from the runner's environment leaks in.
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('SERVICE_') && key !== 'PORT') env[key] = value;
  }
  Object.assign(env, { PORT: '0', SERVICE_LOCAL_DATA_DIR: dataDir, SERVICE_LOG_LEVEL: 'warn' });
  // node itself with tsx's loader (not the tsx command, which runs the server in a child of its
  // own), so SIGKILL reaches the process holding the store.
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/runtime/local-main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exit;
    }
  });
  return new Promise((done, fail) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) done({ child, url, exit });
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    void exit.then((code) => fail(new Error(`Server exited with ${code} before listening:\n${output}`)));
  });
}

describe('npm start', () => {
  it('keeps a definition across SIGTERM and a restart, exiting 0', async () => {
    const dataDir = freshDataDir();
    const workflow = workflowDef({ description: 'from the entry point' });

    const first = await startEntry(dataDir);
    expect(first.url).not.toMatch(/:0$/);
    await expectOk(await fetch(`${first.url}/api/metadata/workflow`, jsonRequest('POST', workflow)));
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);

    const second = await startEntry(dataDir);
    const stored = JSON.parse(
      await expectOk(await fetch(`${second.url}/api/metadata/workflow/${workflow.name}`)),
    ) as Record<string, unknown>;
    expect(stored).toMatchObject({ name: workflow.name, description: 'from the entry point' });
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  }, 120_000);

  it('loses nothing acknowledged when killed with SIGKILL straight after the last answer', async () => {
    const dataDir = freshDataDir();
    const workflow = workflowDef({ description: 'survives kill -9' });
    const first = await startEntry(dataDir);
    await expectOk(await fetch(`${first.url}/api/metadata/workflow`, jsonRequest('POST', workflow)));
    const started = await Promise.all(
      Array.from({ length: 40 }, async (_, i) =>
        expectOk(await fetch(`${first.url}/api/workflow/${workflow.name}`, jsonRequest('POST', { n: i }))),
      ),
    );
    // Ten tasks polled and completed; the last answer is followed at once by the kill, well
    // within the time the store keeps writes in its log before LevelDB has them.
    const taskType = 'first_task';
    const completed: string[] = [];
    for (let i = 0; i < 10; i++) {
      const polled = JSON.parse(
        await expectOk(await fetch(`${first.url}/api/tasks/poll/${taskType}?workerid=w`)),
      ) as { taskId: string; workflowInstanceId: string };
      await expectOk(
        await fetch(
          `${first.url}/api/tasks`,
          jsonRequest('POST', {
            workflowInstanceId: polled.workflowInstanceId,
            taskId: polled.taskId,
            status: 'COMPLETED',
            outputData: { i },
          }),
        ),
      );
      completed.push(polled.taskId);
    }
    first.child.kill('SIGKILL');
    await first.exit;

    const second = await startEntry(dataDir);
    for (const id of started) {
      const run = JSON.parse(
        await expectOk(await fetch(`${second.url}/api/workflow/${id}?includeTasks=true`)),
      ) as { workflowId: string; tasks: { taskId: string; status: string }[] };
      expect(run.workflowId).toBe(id);
      expect(run.tasks.length).toBeGreaterThan(0);
    }
    for (const taskId of completed) {
      const task = JSON.parse(await expectOk(await fetch(`${second.url}/api/tasks/${taskId}`))) as {
        status: string;
        outputData: Record<string, unknown>;
      };
      expect(task.status).toBe('COMPLETED');
    }
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  }, 120_000);
});
