// `npm start`'s local host runs the periodic jobs (lib/jobs) itself: the sweeper decides a run
// whose wake-up has come although the run's in-process timer has not fired.
import { afterEach, describe, expect, it } from 'vitest';
import { JOBS } from '../../lib/jobs/index.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { uniqueName } from '../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ExecutionApi } from '../http/execution-api.ts';

const MINUTE = 60_000;
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
    ]);
    expect(
      (await api.workflowEventually(id, 'COMPLETED')).tasks.map((t) => [t.referenceTaskName, t.status]),
    ).toEqual([['pause', 'COMPLETED']]);
  });
});
