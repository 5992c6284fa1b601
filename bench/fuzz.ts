/**
 * The long fuzz run (`npm run bench:fuzz`, issue 8): the fuzz suite's hostile requests
 * (test/helpers/fuzz.ts) against a local server on the memory store, every route in turn, and
 * the figures: requests, answers by status, failures, slowest answer, and the longest the event
 * loop was held (perf_hooks monitorEventLoopDelay; the server runs in this process). The issue's
 * budget is 100 ms. Options: --requests=20000 --seed=8008.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { configOf } from '../lib/config/load.ts';
import { silentLogger } from '../lib/log/logger.ts';
import { startLocalServer } from '../lib/runtime/local.ts';
import { createRouter } from '../lib/runtime/router.ts';
import { check, type FuzzFailure, hostileRequest, prng } from '../test/helpers/fuzz.ts';
import { Args } from './lib/args.ts';

const LOOP_BUDGET_MS = 100;

async function main(): Promise<void> {
  const args = new Args(process.argv.slice(2));
  const requests = args.int('requests', 20_000);
  const seed = args.int('seed', 8008);
  const server = await startLocalServer(configOf({ 'service.store': 'memory', 'service.server.port': 0 }), {
    logger: silentLogger,
  });
  const routes = createRouter(server.services).routes();
  const random = prng(seed);
  const statuses = new Map<number, number>();
  const failures: FuzzFailure[] = [];
  let slowest = 0;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const route = routes[i % routes.length];
    if (!route) continue;
    const result = await check(
      (target, init) => fetch(`${server.url}${target}`, init),
      hostileRequest(random, route),
      1000,
    );
    statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
    slowest = Math.max(slowest, result.ms);
    if (result.failure) failures.push(result.failure);
  }
  loop.disable();
  const seconds = (performance.now() - started) / 1000;
  const health = (await fetch(`${server.url}/health`)).status;
  await server.close();
  const maxBlock = loop.max / 1e6;
  const lines = [
    `fuzz: ${requests} requests over ${routes.length} routes, seed ${seed}, ${seconds.toFixed(1)} s`,
    `answers by status: ${[...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
    `failures: ${failures.length}`,
    ...failures.slice(0, 20).map((f) => `  ${f.problem} <- ${f.request}`),
    `slowest answer: ${slowest.toFixed(1)} ms`,
    `event loop: max block ${maxBlock.toFixed(1)} ms (budget ${LOOP_BUDGET_MS} ms), p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms`,
    `health afterwards: ${health}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (failures.length > 0 || health !== 200 || maxBlock > LOOP_BUDGET_MS) process.exitCode = 1;
}

await main();
