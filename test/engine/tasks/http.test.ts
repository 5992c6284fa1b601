/**
 * HTTP (docs/conductor-compat.md §5.19) against a real local HTTP server started here, through the
 * in-process system-task pool: success (JSON parsed), a non-2xx keeping the response, a read
 * timeout, a refused connection, retries from the task definition, and a private address refused
 * (written as IPv4-mapped IPv6 too, or reached through a redirect) unless
 * `service.http-task.allow-private-networks` is on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { httpTask as httpTaskType } from '../../../lib/engine/tasks/http.ts';
import type { TaskRecord, WorkflowRecord } from '../../../lib/model/execution.ts';
import type { LocalDecisionQueue } from '../../../lib/queue/local.ts';
import { unwiredWorkQueue } from '../../../lib/queue/work-queues.ts';
import { createMemoryStores } from '../../../lib/runtime/stores.ts';
import { decorate } from '../../../lib/store/decorate.ts';
import type { ExecutionStore } from '../../../lib/store/ports.ts';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { type Json, ref } from '../../helpers/fixtures.ts';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** Addresses the classifier is made to pass, so a loopback server stands for a public one. */
const pretendPublic = vi.hoisted(() => new Set<string>());
vi.mock('../../../lib/engine/http/address.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../lib/engine/http/address.ts')>();
  return { ...real, refusalOf: (a: string) => (pretendPublic.has(a) ? undefined : real.refusalOf(a)) };
});

let server: Server;
let base: string;
let port: number;
let handler: Handler;
const held: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise((done) => server.close(done));
});

const httpTask = (request: Json, extra: Json = {}): Json => ({
  name: 'call',
  taskReferenceName: 'call',
  type: 'HTTP',
  inputParameters: { http_request: request },
  ...extra,
});

describe('HTTP', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness({ properties: { 'service.http-task.allow-private-networks': true } });
  });
  afterEach(() => h.close());

  async function runOne(task: Json, input: Json = {}): Promise<string> {
    await h.register({
      name: 'http_flow',
      tasks: [task],
      outputParameters: { response: ref('call.output.response') },
    });
    return h.start('http_flow', input);
  }

  it('completes on a 2xx with statusCode, headers, the JSON body parsed and reasonPhrase', async () => {
    handler = (req, body, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-seen': req.headers['x-token'] ?? '' });
      res.end(JSON.stringify({ method: req.method, got: JSON.parse(body), accept: req.headers.accept }));
    };
    const id = await runOne(
      httpTask({
        uri: `${base}/orders`,
        method: 'POST',
        headers: { 'X-Token': 'abc' },
        body: { id: ref('workflow.input.id') },
      }),
      { id: 42 },
    );
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output.response).toMatchObject({
      statusCode: 201,
      reasonPhrase: 'Created',
      body: { method: 'POST', got: { id: 42 }, accept: 'application/json' },
      headers: { 'x-seen': ['abc'] },
    });
  });

  it('takes the flat form (uri, method at the top of the input), and keeps a text body as text', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('plain words');
    };
    await h.register({
      name: 'http_flat',
      tasks: [
        {
          name: 'call',
          taskReferenceName: 'call',
          type: 'HTTP',
          inputParameters: { uri: `${base}/t`, method: 'GET' },
        },
      ],
    });
    const id = await h.start('http_flat');
    expect((await h.task(id, 'call'))?.outputData.response).toMatchObject({
      statusCode: 200,
      body: 'plain words',
    });
  });

  it('fails on a non-2xx, keeping the response in its output', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"error":"busy"}');
    };
    const id = await runOne(httpTask({ uri: `${base}/busy`, method: 'GET' }));
    const task = await h.task(id, 'call');
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toContain('503');
    expect(task?.outputData.response).toMatchObject({ statusCode: 503, body: { error: 'busy' } });
    expect((await h.run(id)).status).toBe('FAILED');
  });

  it('fails when the server does not answer within readTimeOut', async () => {
    handler = (_req, _body, res) => {
      held.push(res);
    };
    const id = await runOne(httpTask({ uri: `${base}/slow`, method: 'GET', readTimeOut: 150 }));
    const task = await h.task(id, 'call');
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toContain('read timed out after 150 ms');
  });

  it('fails when the connection is refused', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const id = await runOne(httpTask({ uri: `http://127.0.0.1:${port}/`, method: 'GET' }));
    const task = await h.task(id, 'call');
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toContain('ECONNREFUSED');
  });

  it('retries as the task definition says, each attempt a new request', async () => {
    let calls = 0;
    handler = (_req, _body, res) => {
      calls++;
      res.writeHead(calls < 3 ? 500 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ calls }));
    };
    await h.registerTaskDefs([{ name: 'call', retryCount: 2, retryDelaySeconds: 0 }]);
    const id = await runOne(httpTask({ uri: `${base}/flaky`, method: 'GET' }));
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(calls).toBe(3);
    expect((await h.tasks(id)).map((t) => [t.retryCount, t.status])).toEqual([
      [0, 'FAILED'],
      [1, 'FAILED'],
      [2, 'COMPLETED'],
    ]);
  });

  it('runs off the decider: the decide commits while the request is still open', async () => {
    const arrived = new Promise<() => void>((resolve) => {
      handler = (_req, _body, res) => resolve(() => res.end('{"late":true}'));
    });
    await h.register({
      name: 'http_off_decider',
      tasks: [
        {
          name: 'both',
          taskReferenceName: 'both',
          type: 'FORK_JOIN',
          forkTasks: [
            [httpTask({ uri: `${base}/held`, method: 'GET' })],
            [{ name: 'side', taskReferenceName: 'side', type: 'SIMPLE' }],
          ],
        },
        { name: 'j', taskReferenceName: 'j', type: 'JOIN', joinOn: ['call', 'side'] },
      ],
    });
    const id = await h.services.engine.starter.start({ name: 'http_off_decider' });
    // Only the decides: the request is held by the server meanwhile.
    await (h.services.decisions as LocalDecisionQueue).idle();
    expect((await h.task(id, 'call'))?.status).toBe('IN_PROGRESS');
    const side = await h.poll('side');
    expect(side?.referenceTaskName).toBe('side');
    (await arrived)();
    if (side) await h.complete(side);
    await h.settle();
    expect((await h.task(id, 'call'))?.outputData.response).toMatchObject({ body: { late: true } });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('reaches a loopback server written as IPv4-mapped IPv6 when private networks are allowed', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"up":true}');
    };
    const id = await runOne(httpTask({ uri: `http://[::ffff:127.0.0.1]:${port}/health`, method: 'GET' }));
    expect((await h.task(id, 'call'))?.status).toBe('COMPLETED');
  });

  it('fails at once without a uri', async () => {
    const id = await runOne(httpTask({ method: 'GET' }));
    expect((await h.task(id, 'call'))?.reasonForIncompletion).toContain('Missing HTTP URI');
  });

  it('registers only with http_request or uri', async () => {
    await expect(
      h.register({ name: 'http_missing', tasks: [{ name: 'c', taskReferenceName: 'c', type: 'HTTP' }] }),
    ).rejects.toThrow(/http_request \(or uri and method\) is required/);
  });
});

describe('HTTP across a crash', () => {
  it('is on the system-task queue before the decide commits: a process dying just after the commit loses nothing', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"done":true}');
    };
    const stores = createMemoryStores();
    let died = false;
    // The process dies right after the commit of the decide that scheduled the call: nothing it
    // would have done after that commit happens (its decide request is still retried).
    const executions = decorate<ExecutionStore>(stores.executions, {
      commitWorkflow: async (record, expectedRev) => {
        await stores.executions.commitWorkflow(record, expectedRev);
        if (!died && record.tasks.some((t) => t.referenceTaskName === 'call')) {
          died = true;
          throw new Error('the process died after the commit');
        }
      },
    });
    const h = await engineHarness({
      stores: { ...stores, executions },
      properties: { 'service.http-task.allow-private-networks': true },
    });
    try {
      await h.register({ name: 'http_flow', tasks: [httpTask({ uri: `${base}/x`, method: 'GET' })] });
      const id = await h.start('http_flow');
      await h.advance(5_000);
      expect(died).toBe(true);
      expect((await h.task(id, 'call'))?.status).toBe('COMPLETED');
      expect((await h.run(id)).status).toBe('COMPLETED');
    } finally {
      await h.close();
    }
  });
});

describe("HTTP's hand-over to the system-task queue", () => {
  const sent: unknown[] = [];
  const wired = { send: async (message: unknown) => void sent.push(message) };

  it('dispatches to a wired queue before the commit, and has no start', async () => {
    const type = httpTaskType({ allowPrivateNetworks: false, queue: wired });
    expect(type.start).toBeUndefined();
    await type.dispatch?.({
      workflowInstanceId: 'w-1',
      taskId: 't-1',
      callbackAfterSeconds: 0,
    } as TaskRecord);
    expect(sent).toEqual([{ workflowId: 'w-1', taskId: 't-1' }]);
  });

  it('on a host without the queue, fails the task after the commit naming the missing property', async () => {
    const type = httpTaskType({
      allowPrivateNetworks: false,
      queue: unwiredWorkQueue('system-tasks', 'the.url'),
    });
    expect(type.dispatch).toBeUndefined();
    const task = { workflowInstanceId: 'w-1', taskId: 't-1' } as TaskRecord;
    await expect(type.start?.({ task, run: {} as WorkflowRecord, now: 0 })).rejects.toThrow('the.url');
  });
});

describe('HTTP without allow-private-networks (the default)', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(() => {
    pretendPublic.clear();
    return h.close();
  });

  async function runOne(uri: string) {
    await h.register({ name: 'http_private', tasks: [httpTask({ uri, method: 'GET' })] });
    const id = await h.start('http_private');
    return h.task(id, 'call');
  }

  it.each([
    ['loopback', () => `${base}/x`],
    ['a name that resolves to loopback', () => base.replace('127.0.0.1', 'localhost')],
    ['link-local (metadata service)', () => 'http://169.254.169.254/latest/meta-data'],
    ['IPv6 loopback', () => 'http://[::1]:9/'],
  ])('refuses %s without connecting', async (_what, uri) => {
    let reached = false;
    handler = (_req, _body, res) => {
      reached = true;
      res.end();
    };
    await h.register({ name: 'http_private', tasks: [httpTask({ uri: uri(), method: 'GET' })] });
    const id = await h.start('http_private');
    const task = await h.task(id, 'call');
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toContain('service.http-task.allow-private-networks');
    expect(reached).toBe(false);
  });

  it.each([
    ['::ffff:127.0.0.1', () => `http://[::ffff:127.0.0.1]:${port}/health`],
    ['::ffff:7f00:1', () => `http://[::ffff:7f00:1]:${port}/health`],
    ['0:0:0:0:0:ffff:127.0.0.1', () => `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/health`],
  ])('refuses loopback written as IPv4-mapped IPv6 (%s) without connecting', async (_form, uri) => {
    let reached = false;
    handler = (_req, _body, res) => {
      reached = true;
      res.end();
    };
    const task = await runOne(uri());
    expect(task?.status).toBe('FAILED');
    // The URL parser writes every form as ::ffff:7f00:1; the reason names the IPv4 address inside.
    expect(task?.reasonForIncompletion).toContain(
      'the address ::ffff:7f00:1 is loopback (127.0.0.1, IPv4-mapped); HTTP tasks may not reach',
    );
    expect(task?.reasonForIncompletion).toContain('service.http-task.allow-private-networks');
    expect(reached).toBe(false);
  });

  it('does not follow a redirect from an allowed address to IPv4-mapped loopback', async () => {
    pretendPublic.add('127.0.0.1');
    const target = `http://[::ffff:127.0.0.1]:${port}/health`;
    const seen: string[] = [];
    handler = (req, _body, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/moved') res.writeHead(302, { location: target }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"up":true}');
    };
    const task = await runOne(`${base}/moved`);
    expect(seen).toEqual(['/moved']);
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toContain('302');
    expect(task?.outputData.response).toMatchObject({ statusCode: 302, headers: { location: [target] } });
    // The redirect's target, asked for directly, is refused by the address check.
    const direct = await runOne(target);
    expect(direct?.reasonForIncompletion).toContain('loopback (127.0.0.1, IPv4-mapped)');
    expect(seen).toEqual(['/moved']);
  });
});
