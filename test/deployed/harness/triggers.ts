/**
 * What invokes the functions besides API Gateway, from the template:
 * - SQS event source mappings: batches of up to BatchSize messages, at most MaximumConcurrency
 *   invocations at once, partial batch responses (ReportBatchItemFailures); a failed invocation
 *   leaves its whole batch to come back after the visibility timeout.
 * - EventBridge schedule rules (rate and cron), fired as the harness clock passes each time, and
 *   invoked asynchronously as Lambda does: retried per the target's RetryPolicy, then sent to its
 *   dead-letter queue.
 */
import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import type { HarnessClock } from './clock.ts';
import type { InvokeResult, LambdaFunction } from './functions.ts';
import type { QueuedMessage, Sqs, SqsQueue } from './sqs.ts';
import { ACCOUNT, REGION } from './template.ts';

export interface InvocationFailure {
  function: string;
  source: string;
  error: string;
}

export class EventSourceMapping {
  private inFlight = 0;
  private scheduled = false;
  private stopped = false;
  private readonly unsubscribe: () => void;
  private readonly idle = new Set<() => void>();

  constructor(
    readonly queue: SqsQueue,
    private readonly sqs: Sqs,
    readonly fn: LambdaFunction,
    private readonly settings: { batchSize: number; maxConcurrency: number; reportFailures: boolean },
    private readonly failures: InvocationFailure[],
  ) {
    this.unsubscribe = queue.onAvailable(() => this.wake());
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
  }

  /** Resolves once nothing is in flight and nothing is receivable (delayed messages may remain). */
  settled(): Promise<void> {
    if (this.quiet()) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  private quiet(): boolean {
    return this.inFlight === 0 && this.queue.counts().visible === 0;
  }

  private wake(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (!this.stopped && this.inFlight < this.settings.maxConcurrency) {
      const batch = this.sqs.receive(this.queue, this.settings.batchSize);
      if (batch.length === 0) break;
      this.inFlight += 1;
      void this.deliver(batch).finally(() => {
        this.inFlight -= 1;
        this.wake();
        if (this.quiet()) for (const resolve of this.idle) resolve();
        if (this.quiet()) this.idle.clear();
      });
    }
    if (this.quiet()) {
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
  }

  private async deliver(batch: QueuedMessage[]): Promise<void> {
    const event = {
      Records: batch.map((m) => ({
        messageId: m.messageId,
        receiptHandle: m.receiptHandle,
        body: m.body,
        attributes: {
          ApproximateReceiveCount: String(m.receiveCount),
          SentTimestamp: String(m.sentAt),
          SenderId: 'AROAHARNESS',
          ApproximateFirstReceiveTimestamp: String(m.firstReceiveAt ?? m.sentAt),
          ...(m.groupId
            ? {
                MessageGroupId: m.groupId,
                MessageDeduplicationId: m.deduplicationId,
                SequenceNumber: m.sequenceNumber,
              }
            : {}),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: this.queue.arn,
        awsRegion: REGION,
      })),
    };
    const outcome = await this.fn.invoke(event).catch(
      (error: Error): InvokeResult => ({
        ok: false,
        error: { errorType: 'Harness', errorMessage: error.message },
      }),
    );
    if (!outcome.ok) {
      this.failures.push({
        function: this.fn.spec.name,
        source: this.queue.name,
        error: `${outcome.error.errorType}: ${outcome.error.errorMessage}`,
      });
      return;
    }
    const failed = new Set<string>();
    if (this.settings.reportFailures && outcome.result && typeof outcome.result === 'object') {
      const items = (outcome.result as { batchItemFailures?: { itemIdentifier?: string }[] })
        .batchItemFailures;
      if (items !== undefined && !Array.isArray(items)) {
        // Lambda treats a malformed partial response as the whole batch failing.
        for (const m of batch) failed.add(m.messageId);
      }
      for (const item of items ?? []) {
        if (!batch.some((m) => m.messageId === item.itemIdentifier)) {
          for (const m of batch) failed.add(m.messageId);
        } else failed.add(String(item.itemIdentifier));
      }
    }
    for (const m of batch)
      if (!failed.has(m.messageId) && m.receiptHandle) this.queue.delete(m.receiptHandle);
  }
}

/** Milliseconds of a `rate(N unit)` expression, or undefined for a cron expression. */
export function rateMsOf(expression: string): number | undefined {
  const rate = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (!rate) return undefined;
  const unit = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }[rate[2]?.replace(/s$/, '') as 'minute'];
  return Number(rate[1]) * unit;
}

/** The next time after `after` that a schedule expression fires. */
export function nextFireTime(expression: string, after: number, createdAt: number): number {
  const every = rateMsOf(expression);
  if (every !== undefined) return createdAt + (Math.floor((after - createdAt) / every) + 1) * every;
  const cron = /^cron\((.+)\)$/.exec(expression);
  if (!cron) throw new Error(`Unknown schedule expression '${expression}'`);
  // EventBridge: minutes hours day-of-month month day-of-week year, with '?' for "any"; UTC.
  const fields = (cron[1] as string).split(/\s+/);
  const [min, hour, dom, month, dow] = fields.map((f) => f.replace('?', '*'));
  const next = new Cron(`${min} ${hour} ${dom} ${month} ${dow}`, {
    timezone: 'UTC',
    legacyMode: false,
  }).nextRun(new Date(after));
  if (!next) throw new Error(`Schedule '${expression}' never fires again`);
  return next.getTime();
}

export interface RuleTarget {
  fn: LambdaFunction;
  retries: number;
  deadLetterArn?: string;
}

export class ScheduleRule {
  private last: number;
  /** Rate rules count their periods from the rule's creation, as EventBridge does. */
  private readonly created: number;

  constructor(
    readonly name: string,
    readonly arn: string,
    readonly expression: string,
    private readonly targets: RuleTarget[],
    private readonly sqs: Sqs,
    private readonly failures: InvocationFailure[],
    clock: HarnessClock,
  ) {
    this.last = clock.now();
    this.created = this.last;
  }

  /** Fires once for every scheduled time in (last, now], each target invoked asynchronously. */
  async catchUp(now: number): Promise<number> {
    const created = this.created;
    let fired = 0;
    for (
      let at = nextFireTime(this.expression, this.last, created);
      at <= now;
      at = nextFireTime(this.expression, at, created)
    ) {
      fired += 1;
      await Promise.all(this.targets.map((target) => this.invoke(target, at)));
    }
    this.last = now;
    return fired;
  }

  private async invoke(target: RuleTarget, at: number): Promise<void> {
    const event = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: ACCOUNT,
      time: new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      region: REGION,
      resources: [this.arn],
      detail: {},
    };
    let outcome: InvokeResult = { ok: false, error: { errorType: 'Harness', errorMessage: 'not invoked' } };
    for (let attempt = 0; attempt <= target.retries; attempt += 1) {
      outcome = await target.fn.invoke(event);
      if (outcome.ok) return;
    }
    const error = outcome.ok ? '' : `${outcome.error.errorType}: ${outcome.error.errorMessage}`;
    this.failures.push({ function: target.fn.spec.name, source: this.name, error });
    if (target.deadLetterArn) {
      this.sqs.byArn(target.deadLetterArn).send({ body: JSON.stringify(event) });
    }
  }
}
