import { NodeRequest } from '../lib/http/node-request.ts';
import { withKnownText } from '../lib/http/request.ts';
import { textOf } from '../lib/http/responses.ts';
import { createRouter } from '../lib/runtime/router.ts';
import type { TaskResult } from '../lib/tasks/task-result.ts';
import { registerHandoffWorkload } from './lib/handoff.ts';
import { HttpClient } from './lib/http-client.ts';
import { completedResult, startInProcessServer } from './lib/in-process.ts';
import { loadAverage } from './lib/machine.ts';
import { registerWorkload, TASKS_PER_WORKFLOW, WORKFLOW_NAME } from './lib/workload.ts';

const WORKERS = 8;
const server = await startInProcessServer();
const client = new HttpClient(server.url);
const types = await registerWorkload(client, 5);
await registerHandoffWorkload(client);
const { engine } = server.services;

/** How a pass reaches the service: the engine's own calls, or web Requests through the router. */
interface Driver {
  start(): Promise<unknown>;
  poll(type: string, workerId: string): Promise<{ workflowInstanceId: string; taskId: string }[]>;
  update(result: TaskResult): Promise<unknown>;
}

const direct: Driver = {
  start: () => engine.starter.start({ name: WORKFLOW_NAME, input: { n: 1 } }),
  poll: (type, workerId) => engine.tasks.poll(type, { count: 1, timeoutMs: 20, workerId }),
  update: (result) => engine.tasks.update(result),
};

const router = createRouter(server.services);
const base = 'http://127.0.0.1';
/**
 * One call through the router as the node:http adapter makes it (lib/http/node-adapter.ts): the
 * body handed over as the text it already is, the answer read as the string it was built from.
 */
async function routed(method: string, path: string, body?: unknown): Promise<unknown> {
  const request = new NodeRequest(`${base}${path}`, method, body === undefined ? {} : JSON_TYPE);
  const response = await router.handle(
    body === undefined ? request : withKnownText(request, JSON.stringify(body)),
  );
  const text = textOf(response) ?? (await response.text());
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  // A start answers the run id as text/plain, as Conductor does; the rest answer JSON.
  return text.startsWith('[') || text.startsWith('{') ? JSON.parse(text) : text;
}
const JSON_TYPE = { 'content-type': 'application/json' };
const viaRouter: Driver = {
  start: () => routed('POST', `/api/workflow/${WORKFLOW_NAME}`, { n: 1 }),
  poll: async (type, workerId) =>
    (await routed('GET', `/api/tasks/poll/batch/${type}?count=1&timeout=20&workerid=${workerId}`)) as {
      workflowInstanceId: string;
      taskId: string;
    }[],
  update: (result) => routed('POST', '/api/tasks', result),
};

async function simpleTasks(workflows: number, driver: Driver): Promise<void> {
  let started = 0;
  let done = 0;
  const starters = Array.from({ length: WORKERS }, async () => {
    while (started < workflows) {
      started++;
      await driver.start();
    }
  });
  const pollers = Array.from({ length: WORKERS }, async (_, w) => {
    let k = w;
    while (done < workflows * TASKS_PER_WORKFLOW) {
      const type = types[k++ % types.length] as string;
      const tasks = await driver.poll(type, `w${w}`);
      for (const t of tasks) {
        await driver.update(completedResult(t));
        done++;
      }
    }
  });
  await Promise.all([...starters, ...pollers]);
}

/**
 * CPU per task and tasks/s of 1,000 workflows through a driver, after 3,000 to warm up: V8 needs
 * about that many before the hot paths are compiled (the first 1,000 cost about twice as much).
 */
async function measureTasks(driver: Driver): Promise<{ cpu: number; rate: number }> {
  await simpleTasks(3000, driver);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await simpleTasks(1000, driver);
  return {
    cpu: cpuMs(process.cpuUsage(cpu)) / (1000 * TASKS_PER_WORKFLOW),
    rate: (1000 * TASKS_PER_WORKFLOW) / ((performance.now() - started) / 1000),
  };
}

/** CPU per routed `GET /api/version`, 8 callers at once. */
async function versionCpuUs(requests: number): Promise<number> {
  const callers = async (count: number) => {
    let left = count;
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (left-- > 0) await routed('GET', '/api/version');
      }),
    );
  };
  await callers(2000);
  const cpu = process.cpuUsage();
  await callers(requests);
  return (cpuMs(process.cpuUsage(cpu)) * 1000) / requests;
}

async function loop(iterations: number): Promise<number[]> {
  await engine.starter.start({ name: 'bench_loop_simple', input: { iterations } });
  const out: number[] = [];
  let last: number | undefined;
  for (let i = 0; i < iterations; i++) {
    const [t] = await engine.tasks.poll('bench_loop_body', { count: 1, timeoutMs: 5000, workerId: 'w' });
    if (!t) throw new Error('a 5 s long poll of the loop body ended with no task');
    const now = performance.now();
    if (last !== undefined) out.push(now - last);
    last = now;
    await engine.tasks.update(completedResult(t));
  }
  return out;
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

const engineOnly = await measureTasks(direct);
const throughRouter = await measureTasks(viaRouter);
const versionUs = await versionCpuUs(20_000);

await loop(50);
const cpu = process.cpuUsage();
const samples = (await loop(301)).sort((a, b) => a - b);
const loopCpu = cpuMs(process.cpuUsage(cpu)) / samples.length;
const at = (q: number) =>
  (samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0).toFixed(3);

console.log(
  `SIMPLE tasks, in process, engine calls: ${engineOnly.rate.toFixed(0)} tasks/s, CPU ${engineOnly.cpu.toFixed(3)} ms per task`,
);
console.log(
  `SIMPLE tasks, in process, through the router: ${throughRouter.rate.toFixed(0)} tasks/s, CPU ${throughRouter.cpu.toFixed(3)} ms per task (routes, contracts, JSON: ${(throughRouter.cpu - engineOnly.cpu).toFixed(3)} ms)`,
);
console.log(`GET /api/version through the router: CPU ${versionUs.toFixed(1)} µs per request`);
console.log(
  `DO_WHILE iteration, in process: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, CPU ${loopCpu.toFixed(3)} ms per iteration`,
);
console.log(`load average: ${loadAverage()}`);
await server.close();
process.exit(0);
