/**
 * The schedule-fire consumer as the AWS host runs it (lib/jobs/batch.ts over SQS records): a batch
 * with a duplicate starts one run per fire time, an unreadable body is dropped, not retried, and a
 * fire whose start fails transiently is handed back for redelivery.
 */

import { describe, expect, it } from 'vitest';
import { runConsumer } from '../../lib/jobs/batch.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { TransientError } from '../../lib/model/errors.ts';
import type { SystemTaskMessage } from '../../lib/queue/work-queues.ts';
import { ScheduleDispatcher } from '../../lib/scheduler/dispatcher.ts';
import { scheduleFire } from '../../lib/scheduler/schedule-fire.ts';
import { sqsRecord } from '../queue/fake-sqs.ts';
import { scheduleBody, schedulerRig } from './rig.ts';

const T0 = Date.UTC(2026, 0, 1);

describe('schedule-fire on the AWS host', () => {
  it('starts one run per fire time for a batch with duplicates, and drops unreadable bodies', async () => {
    const rig = await schedulerRig(T0 + 1);
    const saved = await rig.service.save(scheduleBody(rig));
    rig.h.clock.set(T0 + 60_000);
    const body = JSON.stringify({
      scheduleName: saved.name,
      cronExpression: '0 * * * * *',
      zoneId: 'UTC',
      scheduledTime: T0 + 60_000,
    });
    const deps = { ...depsFor(rig), scheduler: rig.dispatcher };
    const response = await runConsumer(
      scheduleFire,
      [sqsRecord('a', body), sqsRecord('b', body), sqsRecord('c', '{"scheduleName": 3}')],
      deps,
    );
    await rig.h.settle();
    expect(response).toEqual({ batchItemFailures: [] });
    expect((await rig.runs()).map((r) => r.input._scheduledTime)).toEqual([T0 + 60_000]);
  });

  it('hands a fire back for redelivery when the start fails transiently, leaving it POLLED', async () => {
    const rig = await schedulerRig(T0 + 1);
    const saved = await rig.service.save(scheduleBody(rig));
    const failing = new ScheduleDispatcher({
      schedules: rig.h.services.stores.schedules,
      queue: rig.queue,
      starter: {
        parseRequest: (b) => rig.h.services.engine.starter.parseRequest(b),
        startRun: () => Promise.reject(new TransientError('store busy')),
      },
      clock: rig.h.clock,
      logger: silentLogger,
    });
    const body = JSON.stringify({
      scheduleName: saved.name,
      cronExpression: '0 * * * * *',
      zoneId: 'UTC',
      scheduledTime: T0 + 60_000,
    });
    const response = await runConsumer(scheduleFire, [sqsRecord('m', body)], {
      ...depsFor(rig),
      scheduler: failing,
    });
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm' }] });
    const [execution] = await rig.h.services.stores.schedules.recentExecutions(1);
    expect(execution?.state).toBe('POLLED');
    // The redelivery, with the store back, starts the run and completes the same record.
    await runConsumer(scheduleFire, [sqsRecord('m', body)], { ...depsFor(rig), scheduler: rig.dispatcher });
    expect((await rig.h.services.stores.schedules.getExecution(String(execution?.executionId)))?.state).toBe(
      'EXECUTED',
    );
  });
});

function depsFor(rig: Awaited<ReturnType<typeof schedulerRig>>) {
  const s = rig.h.services;
  return {
    stores: s.stores,
    decisions: s.decisions,
    clock: rig.h.clock,
    logger: silentLogger,
    decide: (id: string) => s.engine.executor.decide(id),
    runSystemTask: (message: SystemTaskMessage) => s.engine.systemTasks.run(message),
    handleEvent: async () => {
      throw new Error('no events in these tests');
    },
  };
}
