/**
 * Decide requests that name the task rows that changed (lib/queue/work-queues.ts): how they are
 * read off the wire, how requests for one run merge (a plain request, or too many rows, means every
 * row), and that both queues merge them: the consumers' batch loop on SQS (where a request
 * delivered again stands for every row) and the local queue.
 */
import { describe, expect, it } from 'vitest';
import { consumeBatch } from '../../lib/jobs/batch.ts';
import { decider } from '../../lib/jobs/decision-consumers.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { LocalDecisionQueue } from '../../lib/queue/local.ts';
import {
  type DecisionMessage,
  decodeDecisionMessage,
  MAX_NAMED_ROWS,
  mergeDecisionMessages,
} from '../../lib/queue/work-queues.ts';

describe('decision messages', () => {
  it('reads the rows a message names, and a message whose rows it cannot read as naming none', () => {
    expect(decodeDecisionMessage({ workflowId: 'w', taskIds: ['a', 'b'] })).toEqual({
      workflowId: 'w',
      taskIds: ['a', 'b'],
    });
    expect(decodeDecisionMessage({ workflowId: 'w' })).toEqual({ workflowId: 'w' });
    for (const taskIds of [[], 'a', [1], [''], null, { a: 1 }])
      expect(decodeDecisionMessage({ workflowId: 'w', taskIds })).toEqual({ workflowId: 'w' });
    expect(decodeDecisionMessage({ taskIds: ['a'] })).toBeUndefined();
  });

  it('merges the rows of two requests; a plain request or too many rows mean every row', () => {
    const named = (...taskIds: string[]): DecisionMessage => ({ workflowId: 'w', taskIds });
    expect(mergeDecisionMessages(named('a', 'b'), named('b', 'c'))).toEqual(named('a', 'b', 'c'));
    expect(mergeDecisionMessages(named('a'), { workflowId: 'w' })).toEqual({ workflowId: 'w' });
    expect(mergeDecisionMessages({ workflowId: 'w' }, named('a'))).toEqual({ workflowId: 'w' });
    const many = Array.from({ length: MAX_NAMED_ROWS }, (_, i) => `t${i}`);
    expect(mergeDecisionMessages(named(...many), named('t0'))).toEqual(named(...many));
    expect(mergeDecisionMessages(named(...many), named('one-more'))).toEqual({ workflowId: 'w' });
  });

  it("hands the decider one merged request per run of an SQS batch, and fails all of a run's messages together", async () => {
    const handled: DecisionMessage[] = [];
    const body = (message: DecisionMessage) => JSON.stringify(message);
    const records = [
      { messageId: '1', body: body({ workflowId: 'w1', taskIds: ['a'] }) },
      { messageId: '2', body: body({ workflowId: 'w2', taskIds: ['x'] }) },
      { messageId: '3', body: body({ workflowId: 'w1', taskIds: ['b'] }) },
      { messageId: '4', body: body({ workflowId: 'w2' }) },
      { messageId: '5', body: body({ workflowId: 'w3', taskIds: ['z'] }) },
    ];
    const response = await consumeBatch(
      records,
      {
        name: 'decider',
        decode: decodeDecisionMessage,
        key: (message) => message.workflowId,
        coalesce: mergeDecisionMessages,
        handle: async (message) => {
          handled.push(message);
          if (message.workflowId === 'w3') throw new Error('store down');
        },
      },
      silentLogger,
    );
    expect(handled).toEqual([
      { workflowId: 'w1', taskIds: ['a', 'b'] },
      { workflowId: 'w2' },
      { workflowId: 'w3', taskIds: ['z'] },
    ]);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: '5' }]);
  });

  it('takes a decide request SQS delivers again as one for every row (the rest of its run may be dead-lettered)', async () => {
    const handled: DecisionMessage[] = [];
    const record = (messageId: string, receives: number, message: DecisionMessage) => ({
      messageId,
      body: JSON.stringify(message),
      attributes: { ApproximateReceiveCount: String(receives) },
    });
    await consumeBatch(
      [
        record('1', 2, { workflowId: 'w1', taskIds: ['b'] }),
        record('2', 1, { workflowId: 'w2', taskIds: ['x'] }),
        record('3', 1, { workflowId: 'w2', taskIds: ['y'] }),
      ],
      {
        ...decider,
        handle: async (message) => {
          handled.push(message);
        },
      },
      silentLogger,
    );
    expect(handled).toEqual([{ workflowId: 'w1' }, { workflowId: 'w2', taskIds: ['x', 'y'] }]);
  });

  it('merges the requests that wait for a run in the local queue', async () => {
    const queue = new LocalDecisionQueue(new ManualClock(), silentLogger);
    const decided: (readonly string[] | undefined)[] = [];
    let release: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    queue.bind(async (_workflowId, taskIds) => {
      decided.push(taskIds);
      if (decided.length === 1) await first;
    });
    await queue.requestForTasks('w', ['a']);
    // While the first decide runs, three more requests wait as one.
    await queue.requestForTasks('w', ['b']);
    await queue.requestForTasks('w', ['c', 'b']);
    release();
    await queue.settled('w');
    await queue.requestForTasks('w', ['d']);
    await queue.request('w');
    await queue.settled('w');
    // A decide with nothing waiting takes its request alone; a plain one names no rows.
    expect(decided).toEqual([['a'], ['b', 'c'], ['d'], undefined]);
    await queue.close();
  });
});
