// The AWS composition root's system-task queue (lib/runtime/aws-adapters/sqs.ts): with the queue URL the stack
// gives deciding functions, HTTP tasks go to SQS; without it a send is refused with an error naming
// the missing property, instead of the HTTP request being made inside the decide.
import { describe, expect, it } from 'vitest';
import { queueUrlProperties, queueUrlProperty } from '../../lib/catalog.ts';
import { configOf } from '../../lib/config/load.ts';
import type { ServiceConfig } from '../../lib/config/service-config.ts';
import { SqsWorkQueue } from '../../lib/queue/sqs-work-queue.ts';
import { workQueuesOf } from '../../lib/queue/work-queues.ts';
import { workQueuesFrom } from '../../lib/runtime/aws-adapters/sqs.ts';

/** The system-task queue a function's services send to: the host's, or unwired. */
const systemTaskQueueFrom = (config: ServiceConfig) =>
  workQueuesOf(workQueuesFrom(config), queueUrlProperties()).of('system-tasks');

const PROPERTY = queueUrlProperty('system-tasks');
const message = { workflowId: 'w-1', taskId: 't-1' };

describe('the AWS system-task queue', () => {
  it('refuses to send without the queue URL, naming the property', async () => {
    const queue = systemTaskQueueFrom(configOf({}));
    expect(queue).not.toBeInstanceOf(SqsWorkQueue);
    await expect(queue.send(message)).rejects.toThrow(PROPERTY);
  });

  it('sends to SQS with the URL', () => {
    const url = 'https://sqs.eu-west-1.amazonaws.com/123456789012/system-tasks';
    expect(systemTaskQueueFrom(configOf({ [PROPERTY]: url }))).toBeInstanceOf(SqsWorkQueue);
  });
});
