/**
 * EVENT (docs/conductor-compat.md §5.20) through the engine with the local host's in-process event
 * queue: a templated sink resolved when scheduled and kept in the input, the payload and
 * `event_produced`, the message id that names the handlers' executions, and the reasons a task
 * fails with for a sink this host cannot reach.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventExecutionIdOf } from '../../../lib/events/processor.ts';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { ref } from '../../helpers/fixtures.ts';

describe('EVENT', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  const register = (sink: string, extra: Record<string, unknown> = {}) =>
    h.register({
      name: 'publisher',
      version: 1,
      tasks: [
        {
          name: 'publish',
          taskReferenceName: 'publish',
          type: 'EVENT',
          sink,
          inputParameters: { order: ref('workflow.input.order') },
          ...extra,
        },
      ],
    });

  it('publishes to the templated conductor sink; the handlers run once for the task’s message', async () => {
    await h.services.stores.eventHandlers.create({
      name: 'record',
      event: 'conductor:publisher:orders-eu',
      active: true,
      actions: [
        {
          action: 'update_workflow_variables',
          update_workflow_variables: {
            workflowId: ref('workflowInstanceId'),
            variables: { seen: ref('order') },
          },
        },
      ],
    });
    await register(`conductor:${ref('workflow.input.queue')}`);
    const id = await h.start('publisher', { order: 5, queue: 'orders-eu' });
    const task = await h.task(id, 'publish');
    expect(task?.inputData).toEqual({ order: 5, sink: 'conductor:orders-eu' });
    expect(task?.status).toBe('COMPLETED');
    expect(task?.outputData).toEqual({
      order: 5,
      sink: 'conductor:orders-eu',
      workflowInstanceId: id,
      workflowType: 'publisher',
      workflowVersion: 1,
      correlationId: null,
      taskToDomain: {},
      event_produced: 'conductor:publisher:orders-eu',
    });
    const [execution] = await h.services.stores.eventExecutions.list('record', h.clock.now(), { limit: 5 });
    expect(execution).toMatchObject({
      id: eventExecutionIdOf(task?.taskId ?? '', 'record', 0),
      messageId: task?.taskId,
      status: 'COMPLETED',
    });
    expect((await h.run(id)).variables).toEqual({ seen: 5 });
  });

  it('fails with FAILED for a sink this host cannot reach, so the task definition retries it', async () => {
    await register('sqs:orders', { retryCount: 1, retryDelaySeconds: 0 });
    const id = await h.start('publisher', { order: 1 });
    const rows = await h.tasks(id);
    expect(rows.map((t) => t.status)).toEqual(['FAILED', 'FAILED']);
    expect(rows[0]?.reasonForIncompletion).toBe(
      'Could not publish to sqs:orders: Sink sqs:orders cannot be reached: this service publishes to sqs only on AWS or with service.events.aws-sinks.enabled',
    );
    expect((await h.run(id)).status).toBe('FAILED');
  });

  it('fails terminally for a sink type the service does not have', async () => {
    await register('nats:orders', { retryCount: 3 });
    const id = await h.start('publisher', { order: 1 });
    const rows = await h.tasks(id);
    expect(rows.map((t) => t.status)).toEqual(['FAILED_WITH_TERMINAL_ERROR']);
    expect(rows[0]?.reasonForIncompletion).toContain("Sink type 'nats' is not available");
  });
});
