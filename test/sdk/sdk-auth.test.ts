/**
 * The official JavaScript SDK, unmodified, against a local server with security on
 * (service.security.enabled): configured with keyId/keySecret it obtains a token from POST /api/token
 * and sends it in X-Authorization on every call, through the client APIs and its worker runtime;
 * with a wrong secret, or without credentials, it fails with a clear error rather than hanging.
 */
import { MetadataClient, simpleTask, WorkflowExecutor, workflow } from '@io-orkes/conductor-javascript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ref, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { collectingLogger, completedWithOkWorker, recordingFetch, sdkClient } from './sdk-client.ts';

const KEY = { keyId: 'sdk-app', keySecret: 'sdk-app-secret-0123456789' };

// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer(
  {
    'service.security.enabled': true,
    'service.security.keys[0].id': KEY.keyId,
    'service.security.keys[0].secret': KEY.keySecret,
  },
  { transport: 'node' },
);

afterEach(() => {
  vi.useRealTimers();
});

describe('the SDK with a valid key', () => {
  it('gets a token, sends it on every call, and runs a workflow with a worker', async () => {
    const recorder = recordingFetch();
    const log = collectingLogger();
    const client = await sdkClient(server.url, { ...KEY, fetch: recorder.fetch, logger: log.logger });
    expect(recorder.calls[0]).toMatchObject({ method: 'POST', path: '/api/token', status: 200 });

    const taskName = uniqueName('sdk_secure_task');
    const name = uniqueName('sdk_secure_wf');
    await new MetadataClient(client).registerWorkflowDef(
      {
        ...workflow(name, [simpleTask('only', taskName, {})]),
        outputParameters: { ok: ref('only.output.ok') },
      },
      true,
    );
    const executor = new WorkflowExecutor(client);
    const id = await executor.startWorkflow({ name, version: 1, input: {} });
    const run = await completedWithOkWorker(client, executor, id, taskName, log.logger);
    expect(run.output).toEqual({ ok: true });
    const apiCalls = recorder.calls.filter((c) => c.path !== '/api/token');
    expect(apiCalls.length).toBeGreaterThan(3);
    expect(apiCalls.every((c) => c.status < 400 || c.status === 404)).toBe(true);
    expect(apiCalls.every((c) => c.authorization !== null && c.authorization.split('.').length === 3)).toBe(
      true,
    );
    expect(log.errors).toEqual([]);
  });
});

describe('the SDK with a wrong secret', () => {
  it('fails to create its client with the server message once its token retries are spent', async () => {
    // The SDK retries the first token request 8 times with backoff up to a minute (about two
    // minutes): its timers are moved on here, the requests themselves are real.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const recorder = recordingFetch();
    let outcome: unknown;
    let settled = false;
    sdkClient(server.url, { keyId: KEY.keyId, keySecret: 'wrong-secret-0123456789', fetch: recorder.fetch })
      .then(
        () => {
          outcome = 'created';
        },
        (error: unknown) => {
          outcome = error;
        },
      )
      .finally(() => {
        settled = true;
      });
    // A refused secret costs the server a salted hash (about 50 ms of real time, on purpose: it is
    // checked as if the key were stored), so each round also lets some real time pass.
    const realPause = async (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until) await new Promise((resolve) => setImmediate(resolve));
    };
    for (let i = 0; i < 400 && !settled; i++) {
      await vi.advanceTimersByTimeAsync(10_000);
      await realPause(20);
    }
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toMatch(
      /Failed to generate authorization token: Invalid key id or secret \(HTTP 401\)/,
    );
    expect(recorder.calls.length).toBe(8);
    expect(recorder.calls.every((c) => c.path === '/api/token' && c.status === 401)).toBe(true);
  });
});

describe('the SDK without credentials', () => {
  it('sends no token and every API call fails with 401', async () => {
    const client = await sdkClient(server.url);
    await expect(new MetadataClient(client).getAllWorkflowDefs()).rejects.toThrow(/Missing token/);
  });
});
