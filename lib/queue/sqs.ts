/**
 * The decision queue on AWS, a typed use of two SQS work queues. Decides go through the FIFO
 * `decisions` queue with the workflow id as message group, so one run is decided by one consumer
 * at a time. FIFO queues take no per-message delay, so wake-ups within SQS's 15-minute limit go to
 * the standard `timers` queue with a delay, whose consumer forwards them to the FIFO queue; later
 * ones wait for the one-minute sweeper, which finds due runs through the stored wake-up times.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Clock } from '../model/clock.ts';
import type { IdGenerator } from '../model/ids.ts';
import type { DecisionQueue } from './ports.ts';
import { SqsWorkQueue } from './sqs-work-queue.ts';
import type { DecisionMessage } from './work-queues.ts';

export type { DecisionMessage } from './work-queues.ts';

/** SQS DelaySeconds is at most 900 (15 minutes). */
export const MAX_SQS_DELAY_SECONDS = 900;
const MAX_DELAY_MS = MAX_SQS_DELAY_SECONDS * 1000;

/**
 * Whether arming a run's wake-up at `at` (DecisionQueue.wakeAt) sends a timer message at `now`:
 * - not beyond the SQS delay limit: the sweeper finds such a run through its stored wake-up;
 * - not when kept from a decide's commit made within the limit (WorkflowRecord.wakeArmedAt): that
 *   decide armed it before committing (or skipped it, by this same rule, after an earlier one
 *   had), so its message is on its way already.
 */
export function sendsTimer(at: number, now: number, keptSince?: number): boolean {
  if (at <= 0) return false;
  if (keptSince !== undefined && at - keptSince <= MAX_DELAY_MS) return false;
  return at - now <= MAX_DELAY_MS;
}

const WHAT = 'workflow decision';

export class SqsDecisionQueue implements DecisionQueue {
  private readonly decisions: SqsWorkQueue<DecisionMessage>;
  private readonly timers: SqsWorkQueue<DecisionMessage>;

  constructor(
    client: SQSClient,
    urls: { decisions: string; timers: string },
    private readonly clock: Clock,
    ids: IdGenerator,
  ) {
    this.decisions = new SqsWorkQueue(
      client,
      { name: 'decisions', url: urls.decisions, type: 'fifo' },
      ids,
      WHAT,
    );
    this.timers = new SqsWorkQueue(client, { name: 'timers', url: urls.timers, type: 'standard' }, ids, WHAT);
  }

  /** Decides run in the decider function, never in this process. */
  settled(_workflowId: string): Promise<void> {
    return Promise.resolve();
  }

  async request(workflowId: string, delayMs = 0): Promise<void> {
    if (delayMs > 0) {
      await this.delayed(workflowId, delayMs);
      return;
    }
    await this.decisions.send({ workflowId }, { groupId: workflowId });
  }

  async requestForTasks(workflowId: string, taskIds: readonly string[]): Promise<void> {
    await this.decisions.send({ workflowId, taskIds }, { groupId: workflowId });
  }

  async wakeAt(workflowId: string, at: number, keptSince?: number): Promise<void> {
    const now = this.clock.now();
    if (sendsTimer(at, now, keptSince)) await this.delayed(workflowId, Math.max(0, at - now));
  }

  /**
   * A longer delay is cut to the limit: the run is decided early, which is harmless (the decide
   * finds nothing due), whereas waiting longer would not be.
   */
  private delayed(workflowId: string, delayMs: number): Promise<void> {
    return this.timers.send({ workflowId }, { delayMs: Math.min(MAX_DELAY_MS, delayMs) });
  }
}
