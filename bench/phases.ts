import { Args } from './lib/args.ts';
import { startChildServer } from './lib/child-server.ts';
import { expectStatus, HttpClient } from './lib/http-client.ts';
import { completedResult, startInProcessServer } from './lib/in-process.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, table } from './lib/stats.ts';
import { registerWorkload, TASKS_PER_WORKFLOW, WORKFLOW_NAME } from './lib/workload.ts';

const args = new Args();
const RUNS = args.int('runs', 2000, 10);
const ROUNDS = args.int('rounds', 3, 1);
const CALLERS = 8;

interface Polled {
  workflowInstanceId: string;
  taskId: string;
}

/** One side of the comparison: how it calls the service and how it reads the server's CPU. */
interface Side {
  start(): Promise<unknown>;
  poll(type: string): Promise<Polled[]>;
  update(task: Polled): Promise<unknown>;
  queued(type: string): Promise<number>;
  /** [total, kernel] CPU ms of the server so far. */
  cpu(): [number, number];
}

/** Runs `n` calls, `CALLERS` at a time. */
async function spread(n: number, call: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (next < n) await call(next++);
    }),
  );
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; !(await check()); i++) {
    if (i > 3000) throw new Error('the decides did not finish within 30 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

type PhaseCpu = Record<'start' | 'poll' | 'update', { total: number; kernel: number }>;

/** One round: start N runs, poll their first tasks, complete them; CPU per call of each phase. */
async function round(side: Side, types: string[]): Promise<PhaseCpu> {
  const [first, second] = types as [string, string];
  const measure = async (work: () => Promise<void>) => {
    const [t0, k0] = side.cpu();
    await work();
    const [t1, k1] = side.cpu();
    return { total: (t1 - t0) / RUNS, kernel: (k1 - k0) / RUNS };
  };
  const start = await measure(async () => {
    await spread(RUNS, () => side.start());
    await until(async () => (await side.queued(first)) >= RUNS);
  });
  const polled: Polled[] = [];
  const poll = await measure(() =>
    spread(RUNS, async () => {
      // Concurrent polls of one queue skip the entries another is claiming: one may come back
      // empty while tasks are left, and asks again.
      for (let attempt = 0; attempt < 100; attempt++) {
        const [task] = await side.poll(first);
        if (task) {
          polled.push(task);
          return;
        }
      }
      throw new Error('100 polls in a row found no task');
    }),
  );
  const update = await measure(async () => {
    await spread(RUNS, (i) => side.update(polled[i] as Polled));
    await until(async () => (await side.queued(second)) >= RUNS);
  });
  // Drain the rest of the runs so that the next round starts from empty queues.
  for (const type of types.slice(1)) {
    for (;;) {
      const tasks: Polled[] = [];
      await spread(RUNS, async () => tasks.push(...(await side.poll(type))));
      if (tasks.length === 0) break;
      await spread(tasks.length, (i) => side.update(tasks[i] as Polled));
    }
  }
  return { start, poll, update };
}

async function overHttp(): Promise<PhaseCpu[]> {
  const server = await startChildServer();
  try {
    const client = new HttpClient(server.url);
    const types = await registerWorkload(client, 5);
    const json = async (path: string) => JSON.parse(expectStatus(await client.get(path), path).body);
    const side: Side = {
      start: async () => expectStatus(await client.post(`/api/workflow/${WORKFLOW_NAME}`, { n: 1 }), 'start'),
      poll: (type) => json(`/api/tasks/poll/batch/${type}?count=1&timeout=0&workerid=w`),
      update: async (task) => expectStatus(await client.post('/api/tasks', completedResult(task)), 'update'),
      queued: async (type) => (await json(`/api/tasks/queue/sizes?taskType=${type}`))[type] ?? 0,
      cpu: () => [server.cpuMs() ?? Number.NaN, server.systemCpuMs() ?? Number.NaN],
    };
    return await rounds(side, types);
  } finally {
    await server.stop();
  }
}

async function inProcess(): Promise<PhaseCpu[]> {
  const server = await startInProcessServer();
  try {
    const types = await registerWorkload(new HttpClient(server.url), 5);
    const { engine } = server.services;
    const side: Side = {
      start: () => engine.starter.start({ name: WORKFLOW_NAME, input: { n: 1 } }),
      poll: (type) => engine.tasks.poll(type, { count: 1, timeoutMs: 0, workerId: 'w' }),
      update: (task) => engine.tasks.update(completedResult(task)),
      queued: async (type) => (await engine.tasks.queueSizes([type]))[type] ?? 0,
      cpu: () => {
        const usage = process.cpuUsage();
        return [(usage.user + usage.system) / 1000, usage.system / 1000];
      },
    };
    return await rounds(side, types);
  } finally {
    await server.close();
  }
}

async function rounds(side: Side, types: string[]): Promise<PhaseCpu[]> {
  await round(side, types); // warm-up
  const out: PhaseCpu[] = [];
  for (let i = 0; i < ROUNDS; i++) out.push(await round(side, types));
  return out;
}

/** The lowest of the rounds, phase by phase: the round least disturbed by other work. */
function lowest(results: PhaseCpu[]): PhaseCpu {
  const pick = (phase: keyof PhaseCpu) =>
    results.map((r) => r[phase]).reduce((a, b) => (b.total < a.total ? b : a));
  return { start: pick('start'), poll: pick('poll'), update: pick('update') };
}

console.log(`load average before: ${loadAverage()}`);
const http = lowest(await overHttp());
const local = lowest(await inProcess());
const us = (ms: number) => `${fmt(ms * 1000, 0)} µs`;
const perTask = (c: PhaseCpu) => c.start.total / TASKS_PER_WORKFLOW + c.poll.total + c.update.total;
console.log(heading(`CPU per call, lowest of ${ROUNDS} rounds of ${RUNS} runs (${CALLERS} callers)`));
console.log(
  table(
    ['phase', 'over HTTP', 'of which kernel', 'engine calls in process', 'HTTP layer'],
    [
      ...(['start', 'poll', 'update'] as const).map((phase) => [
        phase,
        us(http[phase].total),
        us(http[phase].kernel),
        us(local[phase].total),
        us(http[phase].total - local[phase].total),
      ]),
      [
        `per task (start / ${TASKS_PER_WORKFLOW} + poll + update)`,
        us(perTask(http)),
        us(http.start.kernel / TASKS_PER_WORKFLOW + http.poll.kernel + http.update.kernel),
        us(perTask(local)),
        us(perTask(http) - perTask(local)),
      ],
    ],
  ),
);
console.log(`load average after: ${loadAverage()}`);
process.exit(0);
