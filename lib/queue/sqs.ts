/**
 * The decision queue on AWS. Decides go through an SQS FIFO queue with the workflow id as message
 * group, so one run is decided by one consumer at a time. FIFO queues take no per-message delay,
 * so wake-ups within SQS's 15-minute limit go to a standard "timer" queue with DelaySeconds, whose
 * consumer forwards them to the FIFO queue; later ones wait for the one-minute sweeper, which finds
 * due runs through the stored wake-up times.
 */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Clock } from '../model/clock.ts';
import { TransientError } from '../model/errors.ts';
import type { IdGenerator } from '../model/ids.ts';
import type { DecisionQueue } from './ports.ts';

/** SQS DelaySeconds is at most 900 (15 minutes). */
export const MAX_SQS_DELAY_SECONDS = 900;

export interface DecisionMessage {
  workflowId: string;
}

export class SqsDecisionQueue implements DecisionQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly urls: { decisions: string; timers: string },
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async request(workflowId: string, delayMs = 0): Promise<void> {
    if (delayMs > 0) {
      await this.delayed(workflowId, delayMs);
      return;
    }
    const body: DecisionMessage = { workflowId };
    await this.send(
      new SendMessageCommand({
        QueueUrl: this.urls.decisions,
        MessageBody: JSON.stringify(body),
        MessageGroupId: workflowId,
        // Every request is its own message: a request made while a decide runs must not be
        // swallowed by deduplication, or the change it announces would wait for the sweeper.
        MessageDeduplicationId: this.ids.random(),
      }),
    );
  }

  async wakeAt(workflowId: string, at: number): Promise<void> {
    if (at <= 0) return;
    const delayMs = at - this.clock.now();
    // Beyond the SQS limit the sweeper finds the run through its stored wake-up time.
    if (delayMs > MAX_SQS_DELAY_SECONDS * 1000) return;
    await this.delayed(workflowId, Math.max(0, delayMs));
  }

  private async delayed(workflowId: string, delayMs: number): Promise<void> {
    const body: DecisionMessage = { workflowId };
    await this.send(
      new SendMessageCommand({
        QueueUrl: this.urls.timers,
        MessageBody: JSON.stringify(body),
        DelaySeconds: Math.min(MAX_SQS_DELAY_SECONDS, Math.ceil(delayMs / 1000)),
      }),
    );
  }

  /**
   * A failed send is transient for the caller (503, retryable): the state change it announces is
   * already stored, and the worker's retry, or the sweeper, asks again.
   */
  private async send(command: SendMessageCommand): Promise<void> {
    try {
      await this.client.send(command);
    } catch (error) {
      throw new TransientError('Could not queue the workflow decision; retry the request', { cause: error });
    }
  }
}
