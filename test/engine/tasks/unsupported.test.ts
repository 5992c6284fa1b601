/**
 * Conductor system types this service does not carry out (lib/model/task-types/unsupported.ts):
 * they register as Conductor lets them, and a run that reaches one fails that task at once,
 * terminally, with a reason naming the type - never leaving it in a worker queue of that name.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import type { Json } from '../../helpers/fixtures.ts';

const kafkaTask: Json = {
  name: 'call',
  taskReferenceName: 'call',
  type: 'KAFKA_PUBLISH',
  inputParameters: { kafka_request: { topic: 'orders', value: 'x', bootStrapServers: 'localhost:9092' } },
};

describe('an unsupported Conductor system type', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(() => h.close());

  it('fails its task at once with FAILED_WITH_TERMINAL_ERROR naming the type, and fails the run', async () => {
    await h.register({ name: 'calls_kafka', tasks: [kafkaTask] });
    const id = await h.start('calls_kafka');
    const task = await h.task(id, 'call');
    expect(task?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
    expect(task?.reasonForIncompletion).toBe('Task type KAFKA_PUBLISH is not supported by this service');
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.reasonForIncompletion).toContain('Task type KAFKA_PUBLISH is not supported by this service');
  });

  it('is never retried, whatever its task definition allows', async () => {
    await h.registerTaskDefs([{ name: 'call', retryCount: 3, retryDelaySeconds: 0 }]);
    await h.register({ name: 'calls_kafka_retrying', tasks: [kafkaTask] });
    const id = await h.start('calls_kafka_retrying');
    expect((await h.tasks(id)).map((t) => [t.referenceTaskName, t.retryCount, t.status])).toEqual([
      ['call', 0, 'FAILED_WITH_TERMINAL_ERROR'],
    ]);
  });

  it('never sits in a worker queue named after the type', async () => {
    await h.register({ name: 'calls_kafka_queue', tasks: [kafkaTask] });
    await h.start('calls_kafka_queue');
    expect(await h.services.engine.tasks.allQueues()).not.toHaveProperty('KAFKA_PUBLISH');
    expect(await h.poll('KAFKA_PUBLISH')).toBeUndefined();
  });

  it('lets the run go on past an optional one, as COMPLETED_WITH_ERRORS', async () => {
    await h.register({
      name: 'optional_llm',
      tasks: [
        { name: 'chat', taskReferenceName: 'chat', type: 'LLM_CHAT_COMPLETE', optional: true },
        { name: 'after_chat', taskReferenceName: 'after', type: 'SIMPLE' },
      ],
    });
    const id = await h.start('optional_llm');
    const chat = await h.task(id, 'chat');
    expect(chat?.status).toBe('COMPLETED_WITH_ERRORS');
    expect(chat?.reasonForIncompletion).toBe('Task type LLM_CHAT_COMPLETE is not supported by this service');
    await h.work('after_chat');
    expect((await h.run(id)).status).toBe('COMPLETED');
  });
});
