// The local consumer host (lib/jobs/local-consumers.ts): every consumer of the capability list whose
// gate is on runs in process over a queue built from its own descriptor; the local server serves
// its senders those queues, so a message sent locally reaches the handler a Lambda runs on AWS.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONSUMERS } from '../../lib/capabilities.ts';
import { configOf } from '../../lib/config/load.ts';
import { LocalConsumerHost } from '../../lib/jobs/local-consumers.ts';
import type { Consumer, JobDeps } from '../../lib/jobs/types.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const deps = {} as JobDeps;

function consumer(name: string, extra: Partial<Consumer<string>> = {}): Consumer<string> {
  return {
    name,
    summary: name,
    queue: {
      name,
      type: 'standard',
      urlProperty: 'service.aws.event-queue-url',
      batchSize: 10,
      maxReceiveCount: 2,
      maxConcurrency: 2,
      oldestMessageAlarmSeconds: 300,
      deadLetters: { output: 'X', description: 'x' },
    },
    decode: (body) => String(body),
    key: () => undefined,
    handle: async () => {},
    timeoutSeconds: 1,
    grants: { tables: [], sends: [] },
    ...extra,
  };
}

function hostOf(consumers: Consumer<string>[], gates: Record<string, boolean> = {}) {
  return new LocalConsumerHost({
    consumers,
    logger: silentLogger,
    gateOn: (gate) => gates[gate] ?? false,
    number: () => 2,
    timers: { set: (fn) => setTimeout(fn, 0), clear: (handle) => clearTimeout(handle as NodeJS.Timeout) },
  });
}

let server: TestServer | undefined;
let host: LocalConsumerHost | undefined;

afterEach(async () => {
  await host?.close();
  await server?.close();
  host = undefined;
  server = undefined;
});

describe('the local consumer host', () => {
  it('hosts each consumer whose gate is on, except one whose queue has a local stand-in', () => {
    host = hostOf(
      [
        consumer('plain'),
        consumer('gated-on', { gate: 'scheduler' }),
        consumer('gated-off', { gate: 'fileStorage' }),
        consumer('stood-in', { local: { standIn: 'in-process timers' } }),
      ],
      { scheduler: true },
    );
    expect(Object.keys(host.queues()).sort()).toEqual(['gated-on', 'plain']);
  });

  it('delivers a sent message to the consumer with the deps the host builds for it', async () => {
    const handled: [string, JobDeps][] = [];
    const c = consumer('work', { handle: async (message, d) => void handled.push([message, d]) });
    host = hostOf([c]);
    const given = { ...deps, marker: 'own deps' } as JobDeps;
    host.start((of) => (of === c ? given : deps));
    await host.queue<string>('work')?.send('hello');
    await host.idle();
    expect(handled).toEqual([['hello', given]]);
  });

  it("drops a failing message after the queue's maxReceiveCount, or retries it without end when told", async () => {
    let bounded = 0;
    let unbounded = 0;
    host = hostOf([
      consumer('bounded', {
        handle: async () => {
          bounded++;
          throw new Error('fails');
        },
      }),
      consumer('unbounded', {
        local: { attempts: 'unbounded' },
        handle: async () => {
          unbounded++;
          if (unbounded < 5) throw new Error('fails four times');
        },
      }),
    ]);
    host.start(() => deps);
    await host.queue<string>('bounded')?.send('m');
    await host.queue<string>('unbounded')?.send('m');
    // Redeliveries wait on the queue's timers (here: at once), not on idle().
    await vi.waitFor(() => expect(unbounded).toBe(5));
    await host.idle();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bounded).toBe(2);
  });

  it('runs at most `local.concurrency` handlers of a consumer at once', async () => {
    let running = 0;
    let most = 0;
    host = hostOf([
      consumer('slow', {
        local: { concurrency: 'service.http-task.concurrency' },
        handle: async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
        },
      }),
    ]);
    host.start(() => deps);
    for (let n = 0; n < 6; n++) await host.queue<string>('slow')?.send(`m${n}`);
    await host.idle();
    expect(most).toBe(2);
  });

  it('is what the local server runs: every consumer of the list whose gate is on, by its queue', async () => {
    server = await startTestServer({ 'service.scheduler.enabled': false });
    const config = configOf({ 'service.scheduler.enabled': false });
    const expected = CONSUMERS.filter((c) => !c.gate || config.gate(c.gate))
      .filter((c) => c.local?.standIn === undefined)
      .map((c) => c.queue.name)
      .sort();
    expect(Object.keys(server.server.consumers.queues()).sort()).toEqual(expected);
    expect(expected).toContain('decisions');
    expect(expected).not.toContain('schedules');
  });
});
