/**
 * The local host after a restart: the delayed fires the last process held in memory died with it,
 * and the new process picks up where the stored next-run times say (its first tick re-sends the
 * window; a catch-up schedule replays what it missed while down). The stores outlive the process
 * as the embedded store's files do; the clock is manual, so the replayed fires are due at once.
 */
import { describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { startLocalServer } from '../../lib/runtime/local.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { simpleTask, uniqueName } from '../helpers/fixtures.ts';
import { jsonRequest } from '../helpers/server.ts';
import { eventually } from '../http/execution-api.ts';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

describe('the local scheduler across a restart', () => {
  it('replays the fires missed while it was down for a catch-up schedule, once each', async () => {
    const stores = createMemoryStores();
    const clock = new ManualClock(T0 + 1);
    const config = configOf({ 'service.store': 'memory', 'service.server.port': 0 });
    const start = () =>
      startLocalServer(config, { logger: silentLogger, clock, stores: { ...stores, close: async () => {} } });
    const first = await start();
    const workflow = uniqueName('restart_wf');
    const post = (url: string, path: string, body: unknown) =>
      fetch(`${url}${path}`, jsonRequest('POST', body));
    await post(first.url, '/api/metadata/workflow', {
      name: workflow,
      version: 1,
      tasks: [simpleTask('t')],
      schemaVersion: 2,
    });
    const saved = await post(first.url, '/api/scheduler/schedules', {
      name: uniqueName('restart'),
      cronExpression: '0 * * * * *',
      runCatchupScheduleInstances: true,
      startWorkflowRequest: { name: workflow },
    });
    expect(saved.status).toBe(200);
    // Down before the first fire (T0 + 1 min, held by a timer of the first process) for 5 minutes.
    await first.close();
    clock.advance(5 * MINUTE);
    const second = await start();
    try {
      const times = await eventually(async () => {
        const runs = await stores.executions.findWorkflows({ name: workflow });
        if (runs.length < 5) throw new Error(`${runs.length} runs so far`);
        return runs.map((r) => Number(r.input._scheduledTime)).sort((a, b) => a - b);
      });
      expect(times).toEqual([1, 2, 3, 4, 5].map((m) => T0 + m * MINUTE));
      // A second restart re-sends the same window again: nothing starts twice.
      await second.close();
      const third = await start();
      await third.jobs.tick(clock.now());
      await third.close();
      expect(await stores.executions.findWorkflows({ name: workflow })).toHaveLength(5);
    } finally {
      await second.close();
    }
  });
});
