// Exactly once per message, handler and action: the event handlers' consumer on the AWS host
// (lib/events/consumer.ts through the batch loop), over memory stores, the real engine and a
// fake SQS client. A message delivered again (in one batch, in a later batch, concurrently) starts
// one run; a delivery that died mid-action is taken over once its lease ran out and converges on
// the run it started; an action another delivery holds sends the message back to the queue.
import { beforeEach, describe, expect, it } from 'vitest';
import { eventProcessorOf } from '../../lib/events/capability.ts';
import { eventHandlers } from '../../lib/events/consumer.ts';
import type { EventHandler } from '../../lib/events/model.ts';
import { EXECUTION_LEASE_MS, eventExecutionIdOf } from '../../lib/events/processor.ts';
import { eventRecordOf } from '../../lib/events/sources.ts';
import { runConsumer } from '../../lib/jobs/batch.ts';
import { derivedId } from '../../lib/model/ids.ts';
import type { EventMessage } from '../../lib/queue/work-queues.ts';
import { ref } from '../helpers/fixtures.ts';
import { sqsRecord } from '../queue/fake-sqs.ts';
import { depsOf, type Host, host } from '../queue/sqs-host.ts';

const EVENT = 'conductor:orders:placed';
const TARGET = 'fulfil_order';

const handler: EventHandler = {
  name: 'on_order',
  event: EVENT,
  active: true,
  actions: [
    { action: 'start_workflow', start_workflow: { name: TARGET, input: { order: ref('order') } } },
    { action: 'update_workflow_variables', update_workflow_variables: { workflowId: 'w', variables: {} } },
  ],
};

const message = (messageId: string, order = 7): EventMessage => ({
  messageId,
  event: EVENT,
  payload: { order },
});

describe('event redelivery', () => {
  let h: Host;

  const runsOfTarget = async () =>
    (await h.services.stores.executions.findWorkflows({ name: TARGET })).length;
  const consume = (...bodies: [sqsId: string, message: EventMessage][]) =>
    runConsumer(
      eventHandlers,
      bodies.map(([id, m]) => sqsRecord(id, JSON.stringify(m))),
      depsOf(h),
    );

  beforeEach(async () => {
    h = host();
    await h.services.metadata.registerWorkflowDef(
      { name: TARGET, version: 1, tasks: [{ name: 'w', taskReferenceName: 'w', type: 'WAIT' }] },
      true,
    );
    expect(await h.services.stores.eventHandlers.create(handler)).toBe(true);
  });

  it('starts one run for a message delivered twice in one batch and again in a later one', async () => {
    const first = await consume(['sqs-1', message('m1')], ['sqs-2', message('m1')]);
    expect(first).toEqual({ batchItemFailures: [] });
    expect(await consume(['sqs-3', message('m1')])).toEqual({ batchItemFailures: [] });
    expect(await runsOfTarget()).toBe(1);
    const executions = await h.services.stores.eventExecutions.list(handler.name, h.clock.now(), {
      limit: 10,
    });
    expect(executions.map((e) => [e.messageId, e.action, e.status]).sort()).toEqual([
      ['m1', 'start_workflow', 'COMPLETED'],
      ['m1', 'update_workflow_variables', 'FAILED'],
    ]);
    // Another message is another event.
    await consume(['sqs-4', message('m2')]);
    expect(await runsOfTarget()).toBe(2);
  });

  it('starts one run when deliveries race, and sends the losers back while the winner holds the action', async () => {
    const processor = eventProcessorOf(h.services);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => processor.handle(message('m3'))),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected');
    for (const o of refused) expect(String(o.reason)).toContain('being carried out by another delivery');
    expect(await runsOfTarget()).toBe(1);
    // Delivered again later, nothing more happens.
    expect(await processor.handle(message('m3'))).toEqual([]);
    expect(await runsOfTarget()).toBe(1);
  });

  it('takes over an action whose claimer died once its lease ran out, and converges on the run it started', async () => {
    const executions = h.services.stores.eventExecutions;
    const id = eventExecutionIdOf('m4', handler.name, 0);
    const now = h.clock.now();
    // A first delivery claimed the start, started the run, and died before recording it.
    const claim = {
      id,
      messageId: 'm4',
      name: handler.name,
      event: EVENT,
      created: now,
      status: 'IN_PROGRESS' as const,
    };
    expect((await executions.claim(claim, now + EXECUTION_LEASE_MS, now + 3_600_000, now)).claimed).toBe(
      true,
    );
    await h.services.engine.starter.startRun({
      name: TARGET,
      input: {},
      workflowId: derivedId('event-workflow', id),
    });
    // Within the lease the message goes back to the queue.
    expect((await consume(['sqs-5', message('m4')])).batchItemFailures).toEqual([
      { itemIdentifier: 'sqs-5' },
    ]);
    h.clock.advance(EXECUTION_LEASE_MS + 1);
    expect(await consume(['sqs-6', message('m4')])).toEqual({ batchItemFailures: [] });
    expect(await runsOfTarget()).toBe(1);
    const [recorded] = (await executions.list(handler.name, h.clock.now(), { limit: 10 })).filter(
      (e) => e.action === 'start_workflow',
    );
    expect(recorded).toMatchObject({
      status: 'COMPLETED',
      output: { workflowId: derivedId('event-workflow', id) },
    });
  });

  it('runs no handler that is inactive or listens to another event', async () => {
    await h.services.stores.eventHandlers.create({ ...handler, name: 'off', active: false });
    await h.services.stores.eventHandlers.create({ ...handler, name: 'other', event: 'sqs:other' });
    const recorded = await eventProcessorOf(h.services).handle(message('m5'));
    expect(new Set(recorded.map((e) => e.name))).toEqual(new Set([handler.name]));
  });

  it('turns an SQS source record into the event its queue names, its id the SQS message id', () => {
    const record = { ...sqsRecord('sqs-9', '{"order":9}'), eventSourceARN: 'arn:aws:sqs:eu-west-1:1:orders' };
    expect(JSON.parse(eventRecordOf(record).body)).toEqual({
      messageId: 'sqs-9',
      event: 'sqs:orders',
      payload: '{"order":9}',
    });
  });
});
