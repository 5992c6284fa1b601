/**
 * Just enough of SQS behind the fake client for the work-queue contract: messages become visible
 * after their DelaySeconds on a manual clock, a receive takes up to a batch of visible messages (on
 * a FIFO queue none of a group whose oldest message is still invisible), and a message its consumer
 * reports failed becomes visible again after the visibility timeout.
 */
import type { BatchRecord, BatchResponse } from '../../lib/jobs/batch.ts';
import type { ManualClock } from '../../lib/model/clock.ts';
import { FakeSqsClient } from './fake-sqs.ts';

interface Stored {
  seq: number;
  queueUrl: string;
  body: string;
  groupId: string | undefined;
  visibleAt: number;
}

export class FakeSqsBroker {
  readonly client = new FakeSqsClient();
  private stored: Stored[] = [];
  private taken = 0;

  constructor(
    private readonly clock: ManualClock,
    private readonly visibilityMs: number,
  ) {}

  /** Feeds the queue's visible messages to `consume`, batch after batch, until none is left visible. */
  async deliver(
    queueUrl: string,
    batchSize: number,
    consume: (records: BatchRecord[]) => Promise<BatchResponse>,
  ): Promise<void> {
    while (true) {
      this.intake();
      const batch = this.receive(queueUrl, batchSize);
      if (batch.length === 0) return;
      const response = await consume(batch.map((m) => ({ messageId: String(m.seq), body: m.body })));
      const failed = new Set(response.batchItemFailures.map((f) => f.itemIdentifier));
      for (const message of batch) {
        if (failed.has(String(message.seq))) message.visibleAt = this.clock.now() + this.visibilityMs;
        else this.stored = this.stored.filter((m) => m !== message);
      }
    }
  }

  private intake(): void {
    for (const input of this.client.sent.slice(this.taken)) {
      this.stored.push({
        seq: this.taken++,
        queueUrl: input.QueueUrl ?? '',
        body: input.MessageBody ?? '',
        groupId: input.MessageGroupId,
        visibleAt: this.clock.now() + (input.DelaySeconds ?? 0) * 1000,
      });
    }
  }

  private receive(queueUrl: string, batchSize: number): Stored[] {
    const now = this.clock.now();
    const blocked = new Set<string>();
    const batch: Stored[] = [];
    for (const message of this.stored.filter((m) => m.queueUrl === queueUrl)) {
      const visible = message.visibleAt <= now;
      if (message.groupId !== undefined && (blocked.has(message.groupId) || !visible)) {
        // FIFO: a group is handed out in order, so nothing after an invisible message of it.
        blocked.add(message.groupId);
        continue;
      }
      if (visible && batch.length < batchSize) batch.push(message);
    }
    return batch;
  }
}
