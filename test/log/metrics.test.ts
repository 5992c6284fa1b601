/**
 * Service metrics as CloudWatch embedded metric format lines: their shape, what the engine records
 * per decide (tasks completed and failed per type, decide latency), and what a queue consumer
 * records when a message is about to land in its dead-letter queue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { consumeBatch } from '../../lib/jobs/batch.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { embeddedMetrics, METRICS_NAMESPACE } from '../../lib/log/metrics.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';

interface Emf {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [key: string]: unknown;
}

function recorder() {
  const lines: string[] = [];
  const metrics = embeddedMetrics({ write: (line) => lines.push(line), now: () => 1_700_000_000_000 });
  const docs = () => lines.map((line) => JSON.parse(line) as Emf);
  /** The values recorded for a metric (with the dimension value, when it has one). */
  const values = (name: string) =>
    docs()
      .filter((doc) => doc._aws.CloudWatchMetrics[0]?.Metrics[0]?.Name === name)
      .map((doc) => ({
        value: doc[name],
        dimensions: doc._aws.CloudWatchMetrics[0]?.Dimensions[0] ?? [],
        doc,
      }));
  return { metrics, docs, values };
}

describe('embedded metric format', () => {
  it('writes one line a metric: namespace, dimension names, unit, and the values at the top level', () => {
    const r = recorder();
    r.metrics.record('TasksCompleted', 1, 'Count', { TaskType: 'encode' });
    expect(r.docs()).toEqual([
      {
        _aws: {
          Timestamp: 1_700_000_000_000,
          CloudWatchMetrics: [
            {
              Namespace: METRICS_NAMESPACE,
              Dimensions: [['TaskType']],
              Metrics: [{ Name: 'TasksCompleted', Unit: 'Count' }],
            },
          ],
        },
        TaskType: 'encode',
        TasksCompleted: 1,
      },
    ]);
  });
});

describe('engine metrics', () => {
  let h: EngineHarness | undefined;
  afterEach(() => h?.close());

  it('counts completed and failed tasks per task type and times every decide', async () => {
    const r = recorder();
    h = await engineHarness({ metrics: r.metrics });
    await h.register({
      name: 'metered',
      tasks: [
        { name: 'encode', taskReferenceName: 'a', retryCount: 0 },
        { name: 'publish', taskReferenceName: 'b', retryCount: 0 },
      ],
    });
    await h.start('metered');
    await h.work('encode', {});
    await h.work('publish', {}, 'FAILED', 'no network');
    expect(r.values('TasksCompleted').map((v) => [v.doc.TaskType, v.value])).toEqual([['encode', 1]]);
    expect(r.values('TasksFailed').map((v) => [v.doc.TaskType, v.value])).toEqual([['publish', 1]]);
    const latencies = r.values('DecideLatency');
    // The start's decide and one after each worker update.
    expect(latencies.length).toBeGreaterThanOrEqual(3);
    for (const latency of latencies) {
      expect(latency.doc._aws.CloudWatchMetrics[0]?.Metrics[0]?.Unit).toBe('Milliseconds');
      expect(latency.value as number).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('consumer metrics', () => {
  const handler = {
    name: 'decider',
    decode: (body: unknown) =>
      typeof body === 'object' && body !== null ? (body as { id: string }) : undefined,
    key: (message: { id: string }) => message.id,
    handle: async (message: { id: string }) => {
      if (message.id === 'bad') throw new Error('store down');
    },
  };
  const record = (messageId: string, id: string, receives: number) => ({
    messageId,
    body: JSON.stringify({ id }),
    attributes: { ApproximateReceiveCount: String(receives) },
  });

  it('counts a failed message on its last delivery as a dead-letter arrival, and not before', async () => {
    const r = recorder();
    const counted = { metrics: r.metrics, queue: 'decisions', maxReceiveCount: 5 };
    const response = await consumeBatch(
      [record('m1', 'bad', 4), record('m2', 'good', 5)],
      handler,
      silentLogger,
      counted,
    );
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    expect(r.values('DeadLetterArrivals')).toEqual([]);
    await consumeBatch([record('m1', 'bad', 5)], handler, silentLogger, counted);
    expect(r.values('DeadLetterArrivals').map((v) => [v.doc.Queue, v.value])).toEqual([['decisions', 1]]);
  });

  it('counts a message no consumer can read as dropped', async () => {
    const r = recorder();
    await consumeBatch([{ messageId: 'm3', body: '{not json' }], handler, silentLogger, {
      metrics: r.metrics,
      queue: 'decisions',
      maxReceiveCount: 5,
    });
    expect(r.values('MessagesDropped').map((v) => [v.doc.Queue, v.value])).toEqual([['decisions', 1]]);
  });
});
