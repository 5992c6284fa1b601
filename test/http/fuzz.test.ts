/**
 * The fuzz suite (issue 8): every route of the route table (so a new route is covered without
 * editing this file) gets hostile path values, queries and bodies from a seeded generator
 * (test/helpers/fuzz.ts). Each answer must be below 500, an error must carry the JSON error body,
 * and every answer must come within the budget; afterwards the server is healthy and the entities
 * created before the run are unchanged. FUZZ_SEED replays a run; FUZZ_REQUESTS sizes it. The longer
 * run, with the event-loop figures, is `npm run bench:fuzz`.
 */
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../lib/runtime/router.ts';
import { check, type FuzzFailure, hostileRequest, prng } from '../helpers/fuzz.ts';
import { watchLoop } from '../helpers/loop-watch.ts';
import { useTestServer } from '../helpers/server.ts';
import { ExecutionApi, expectJson } from './execution-api.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 8008);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1500);
/** Wall time one answer may take on a loaded two-core CI machine. */
const BUDGET_MS = 2000;
/**
 * Longest this process's work may hold the event loop (test/helpers/loop-watch.ts counts the CPU
 * it burned, so a loaded machine that stops running the process does not count). The process also
 * runs the client (and, in the lambda project, the API Gateway emulation), so this only catches
 * the multi-second blocks of the findings; `npm run bench:fuzz` measures the server against 100 ms.
 */
const LOOP_BUDGET_MS = 1500;

describe('the fuzz suite', () => {
  const server = useTestServer();
  const api = new ExecutionApi(server);

  it(`answers ${REQUESTS} hostile requests over every route cleanly (seed ${SEED})`, {
    timeout: 120_000,
  }, async () => {
    const routes = createRouter(server.server.services).routes();
    expect(routes.length).toBeGreaterThan(30);
    const flow = await api.registerChain();
    await api.registerTaskDefs([{ name: flow.first, retryCount: 2 }]);
    const runId = await api.start(flow.name, { keep: 'me' }, '?correlationId=fuzz');
    const snapshot = async () => ({
      def: await expectJson(await api.get(`/api/metadata/workflow/${flow.name}`)),
      task: await expectJson(await api.get(`/api/metadata/taskdefs/${flow.first}`)),
      run: await expectJson(await api.get(`/api/workflow/${runId}`)),
    });
    const before = await snapshot();

    const random = prng(SEED);
    const failures: FuzzFailure[] = [];
    const loop = watchLoop();
    let slowest = 0;
    for (let i = 0; i < REQUESTS; i++) {
      // Every route in turn, so each is reached at least REQUESTS / routes times.
      const route = routes[i % routes.length];
      if (!route) continue;
      const result = await check(
        (target, init) => server.fetch(`${server.url}${target}`, init),
        hostileRequest(random, route),
        BUDGET_MS,
      );
      slowest = Math.max(slowest, result.ms);
      if (result.failure) failures.push(result.failure);
    }
    const heldMs = loop.stop();

    expect(failures.slice(0, 10)).toEqual([]);
    expect(heldMs).toBeLessThan(LOOP_BUDGET_MS);
    expect(slowest).toBeLessThan(BUDGET_MS);
    expect((await server.fetch(`${server.url}/health`)).status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });
});
