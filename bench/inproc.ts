/**
 * The engine without HTTP (`npm run bench:inproc`): CPU per SIMPLE task execution and DO_WHILE
 * iteration time, driving engine.starter / engine.tasks directly against the in-memory store in
 * this process, so the figures hold the engine and store costs alone (the HTTP layer's share is
 * the difference to `npm run bench` and `npm run bench:handoff`).
 * - CPU: 1,000 workflows of five SIMPLE tasks (200 to warm up), 8 starters and 8 pollers.
 * - DO_WHILE: one run of 300 iterations of a one-SIMPLE-task body (50 to warm up), one poller;
 *   a sample is the time between two consecutive poll answers. process.cpuUsage covers every
 *   thread, the script worker's too.
 */
import { configOf } from '../lib/config/load.ts';
import { createLogger } from '../lib/log/logger.ts';
import { startLocalServer } from '../lib/runtime/local.ts';
import type { TaskResult } from '../lib/tasks/task-result.ts';
import { registerHandoffWorkload } from './lib/handoff.ts';
import { HttpClient } from './lib/http-client.ts';
import { loadAverage } from './lib/machine.ts';
import { registerWorkload, TASKS_PER_WORKFLOW, WORKFLOW_NAME } from './lib/workload.ts';

const WORKERS = 8;
const server = await startLocalServer(
  configOf({ 'service.store': 'memory', 'service.server.port': 0, 'service.instance-id': 'bench' }),
  { logger: createLogger({ level: 'warn', format: 'text' }) },
);
const client = new HttpClient(server.url);
const types = await registerWorkload(client, 5);
await registerHandoffWorkload(client);
const { engine } = server.services;

const completed = (t: { workflowInstanceId: string; taskId: string }): TaskResult => ({
  workflowInstanceId: t.workflowInstanceId,
  taskId: t.taskId,
  status: 'COMPLETED',
  outputData: { ref: 1 },
});

async function simpleTasks(workflows: number): Promise<void> {
  let started = 0;
  let done = 0;
  const starters = Array.from({ length: WORKERS }, async () => {
    while (started < workflows) {
      started++;
      await engine.starter.start({ name: WORKFLOW_NAME, input: { n: 1 } });
    }
  });
  const pollers = Array.from({ length: WORKERS }, async (_, w) => {
    let k = w;
    while (done < workflows * TASKS_PER_WORKFLOW) {
      const type = types[k++ % types.length] as string;
      const tasks = await engine.tasks.poll(type, { count: 1, timeoutMs: 20, workerId: `w${w}` });
      for (const t of tasks) {
        await engine.tasks.update(completed(t));
        done++;
      }
    }
  });
  await Promise.all([...starters, ...pollers]);
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
    await engine.tasks.update(completed(t));
  }
  return out;
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

await simpleTasks(200);
let cpu = process.cpuUsage();
let started = performance.now();
await simpleTasks(1000);
const taskCpu = cpuMs(process.cpuUsage(cpu)) / (1000 * TASKS_PER_WORKFLOW);
const rate = (1000 * TASKS_PER_WORKFLOW) / ((performance.now() - started) / 1000);

await loop(50);
cpu = process.cpuUsage();
started = performance.now();
const samples = (await loop(301)).sort((a, b) => a - b);
const loopCpu = cpuMs(process.cpuUsage(cpu)) / samples.length;
const at = (q: number) =>
  (samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0).toFixed(3);

console.log(`SIMPLE tasks, in process: ${rate.toFixed(0)} tasks/s, CPU ${taskCpu.toFixed(3)} ms per task`);
console.log(
  `DO_WHILE iteration, in process: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, CPU ${loopCpu.toFixed(3)} ms per iteration`,
);
console.log(`load average: ${loadAverage()}`);
await server.close();
process.exit(0);
