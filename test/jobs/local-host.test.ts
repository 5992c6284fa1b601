// `npm start`'s local host runs the periodic jobs (lib/jobs) itself: the sweeper decides a run
// whose wake-up has come although the run's in-process timer has not fired.
import { afterEach, describe, expect, it } from 'vitest';
import { JOBS } from '../../lib/capabilities.ts';
import { configOf } from '../../lib/config/load.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { startLocalServer } from '../../lib/runtime/local.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import type { ExecutionStore } from '../../lib/store/ports.ts';
import { uniqueName } from '../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ExecutionApi } from '../http/execution-api.ts';

const MINUTE = 60_000;

const waitWorkflow = (name: string) => ({
  name,
  version: 1,
  schemaVersion: 2,
  tasks: [
    { name: 'pause', taskReferenceName: 'pause', type: 'WAIT', inputParameters: { duration: '10 minutes' } },
  ],
});

/**
 * An execution store whose wake-up index has lost the entries of some runs: what a crash of the
 * embedded store between writing a run and writing its index entry leaves behind.
 */
function tornIndex(inner: ExecutionStore, hidden: Set<string>): ExecutionStore {
  const torn: ExecutionStore = Object.create(inner);
  torn.dueWakeups = async (now, limit) =>
    (await inner.dueWakeups(now, limit)).filter((due) => !hidden.has(due.workflowId));
  return torn;
}
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the local host', () => {
  it('runs every periodic job', async () => {
    server = await startTestServer();
    expect(server.server.jobs.jobs.map((job) => job.name)).toEqual(JOBS.map((job) => job.name));
  });

  it('has its sweeper decide a WAIT whose deadline passed while its in-process timer is still far off', async () => {
    const clock = new ManualClock();
    server = await startTestServer({}, { clock });
    const api = new ExecutionApi(server);
    const name = uniqueName('sweep');
    await api.registerWorkflow({
      name,
      version: 1,
      schemaVersion: 2,
      tasks: [
        {
          name: 'pause',
          taskReferenceName: 'pause',
          type: 'WAIT',
          inputParameters: { duration: '10 minutes' },
        },
      ],
    });
    const id = await api.start(name);
    await api.workflowUntil(id, (run) => run.tasks.find((t) => t.status === 'IN_PROGRESS'));

    // The run's timer was armed for ten real minutes; only the clock the service reads has moved.
    clock.advance(11 * MINUTE);
    expect((await api.workflow(id)).status).toBe('RUNNING');
    expect(await server.server.jobs.tick(clock.now())).toEqual([
      { job: 'sweeper', result: { due: 1, requested: 1 } },
      // No payload is older than the sweep's grace period: it reads no store.
      { job: 'payload-sweep', result: { stored: 0, candidates: 0, unreferenced: 0, reclaimed: 0 } },
      { job: 'schedule-tick', result: { paused: false, schedules: 0, fires: 0, skipped: 0 } },
    ]);
    expect(
      (await api.workflowEventually(id, 'COMPLETED')).tasks.map((t) => [t.referenceTaskName, t.status]),
    ).toEqual([['pause', 'COMPLETED']]);
  });

  it('finds a WAIT whose wake-up index entry was lost in a crash when it restarts, and ends it', async () => {
    const clock = new ManualClock();
    const hidden = new Set<string>();
    const memory = createMemoryStores();
    const stores = { ...memory, executions: tornIndex(memory.executions, hidden), close: async () => {} };
    const config = configOf({ 'service.store': 'memory', 'service.server.port': 0 });
    const first = await startLocalServer(config, { logger: silentLogger, clock, stores });
    const before = new ExecutionApi({ url: first.url, fetch: (input, init) => fetch(input, init) });
    const name = uniqueName('torn');
    await before.registerWorkflow(waitWorkflow(name));
    const id = await before.start(name);
    await before.workflowUntil(id, (run) => run.tasks.find((t) => t.status === 'IN_PROGRESS'));
    await first.close(); // the in-process timer goes with the process

    hidden.add(id); // the run's item is stored, its wake-up index entry is not
    clock.advance(11 * MINUTE);
    const second = await startLocalServer(config, { logger: silentLogger, clock, stores });
    try {
      const after = new ExecutionApi({ url: second.url, fetch: (input, init) => fetch(input, init) });
      expect((await after.workflowEventually(id, 'COMPLETED')).tasks.map((t) => t.status)).toEqual([
        'COMPLETED',
      ]);
    } finally {
      await second.close();
    }
  });
});
