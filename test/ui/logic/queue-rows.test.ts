// The queue monitor's rows: sizes and last polls joined per worker queue, domains told apart.
import { describe, expect, it } from 'vitest';
import { queueRows, splitQueueName } from '../../../ui/src/logic/queue-rows.ts';

describe('the queue monitor rows', () => {
  it('joins sizes and polls per queue, listing polled-but-empty and unpolled queues alike', () => {
    const rows = queueRows({ 'blue:charge': 2, charge: 5, ship: 1 }, [
      { queueName: 'charge', workerId: 'w-1', lastPollTime: 100 },
      { queueName: 'charge', workerId: 'w-2', lastPollTime: 300 },
      { queueName: 'blue:refund', domain: 'blue', workerId: 'w-3', lastPollTime: 200 },
    ]);
    expect(
      rows.map((r) => [r.queue, r.taskType, r.domain, r.size, r.workers.length, r.lastPollTime]),
    ).toEqual([
      ['charge', 'charge', '', 5, 2, 300],
      ['blue:charge', 'charge', 'blue', 2, 0, 0],
      ['blue:refund', 'refund', 'blue', 0, 1, 200],
      ['ship', 'ship', '', 1, 0, 0],
    ]);
    expect(rows[0]?.workers.map((w) => w.workerId)).toEqual(['w-2', 'w-1']);
  });

  it('reads the domain from the poll when it has one, else before the first colon', () => {
    expect(splitQueueName('a:b:c', 'a:b')).toEqual({ domain: 'a:b', taskType: 'c' });
    expect(splitQueueName('blue:charge')).toEqual({ domain: 'blue', taskType: 'charge' });
    expect(splitQueueName('charge')).toEqual({ domain: '', taskType: 'charge' });
  });
});
