/**
 * The system-task consumer (lib/jobs/system-tasks.ts), as the AWS host runs it: a decide sends the
 * HTTP task to the queue and leaves it IN_PROGRESS; the consumer makes the request against a local
 * server, records the result and asks for a decide; a message delivered again does nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { createQuickJsEvaluator } from '../../lib/engine/script/evaluator.ts';
import { runConsumer } from '../../lib/jobs/batch.ts';
import { systemTasks } from '../../lib/jobs/system-tasks.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { LocalDecisionQueue } from '../../lib/queue/local.ts';
import type { SystemTaskMessage } from '../../lib/queue/work-queues.ts';
import { jobDepsOf } from '../../lib/runtime/job-deps.ts';
import { createServices } from '../../lib/runtime/services.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { sqsRecord } from '../queue/fake-sqs.ts';

let server: Server;
let calls = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    calls++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
});
afterAll(() => new Promise((done) => server.close(done)));

describe('the system-task consumer', () => {
  it('makes the request a decide handed off, records it and has the run decided; a redelivery is a no-op', async () => {
    const clock = new ManualClock();
    const decisions = new LocalDecisionQueue(clock, silentLogger);
    const sent: SystemTaskMessage[] = [];
    const scripts = createQuickJsEvaluator();
    const services = createServices({
      config: configOf({ 'service.store': 'memory', 'service.http-task.allow-private-networks': true }),
      logger: silentLogger,
      clock,
      stores: createMemoryStores(),
      decisions,
      scripts,
      workQueues: {
        'system-tasks': { send: async (message) => void sent.push(message as SystemTaskMessage) },
      },
    });
    decisions.bind((id, taskIds) => services.engine.executor.decide(id, taskIds));
    const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await services.metadata.registerWorkflowDef(
      {
        name: 'http_via_queue',
        tasks: [{ name: 'call', taskReferenceName: 'call', type: 'HTTP', inputParameters: { uri } }],
      },
      true,
    );
    const id = await services.engine.starter.start({ name: 'http_via_queue' });
    await decisions.idle();
    const [task] = await services.stores.executions.listTasks(id);
    expect(task?.status).toBe('IN_PROGRESS');
    expect(sent).toEqual([{ workflowId: id, taskId: task?.taskId }]);
    expect(calls).toBe(0);

    const records = [sqsRecord('m-1', JSON.stringify(sent[0]))];
    expect(await runConsumer(systemTasks, records, jobDepsOf(services))).toEqual({ batchItemFailures: [] });
    await decisions.idle();
    expect(calls).toBe(1);
    const run = await services.stores.executions.getWorkflow(id);
    expect(run?.status).toBe('COMPLETED');

    await runConsumer(systemTasks, records, jobDepsOf(services));
    expect(calls).toBe(1);
    await decisions.close();
    await scripts.close();
  });

  it("holds a retry back in the queue for the task definition's retryDelaySeconds", async () => {
    const clock = new ManualClock();
    const decisions = new LocalDecisionQueue(clock, silentLogger);
    const sent: { message: SystemTaskMessage; delayMs?: number }[] = [];
    const scripts = createQuickJsEvaluator();
    const services = createServices({
      config: configOf({ 'service.store': 'memory' }),
      logger: silentLogger,
      clock,
      stores: createMemoryStores(),
      decisions,
      scripts,
      workQueues: {
        'system-tasks': {
          send: async (message, options) =>
            void sent.push({ message: message as SystemTaskMessage, delayMs: options?.delayMs }),
        },
      },
    });
    decisions.bind((id, taskIds) => services.engine.executor.decide(id, taskIds));
    await services.metadata.registerTaskDefs([{ name: 'call', retryCount: 1, retryDelaySeconds: 30 }]);
    await services.metadata.registerWorkflowDef(
      {
        name: 'http_retry_delay',
        tasks: [
          {
            name: 'call',
            taskReferenceName: 'call',
            type: 'HTTP',
            inputParameters: { uri: 'http://127.0.0.1:9/' },
          },
        ],
      },
      true,
    );
    await services.engine.starter.start({ name: 'http_retry_delay' });
    await decisions.idle();
    // The first attempt: refused (a private address, not allowed here), then retried 30 s later.
    await runConsumer(systemTasks, [sqsRecord('m-1', JSON.stringify(sent[0]?.message))], jobDepsOf(services));
    await decisions.idle();
    expect(sent.map((s) => s.delayMs)).toEqual([undefined, 30_000]);
    await decisions.close();
    await scripts.close();
  });
});
