/**
 * What the non-HTTP Lambdas do, over ports so that tests run them against in-memory stores and a
 * fake SQS client (lib/runtime/aws.ts wires them to the real ones):
 * - the decider consumes the FIFO decision queue and decides each run it names;
 * - the timer consumer forwards due wake-ups from the standard timer queue to the FIFO queue (a
 *   FIFO queue has no per-message delay, and decides must go through it to stay one at a time);
 * - the sweeper, every minute, requests decides of runs whose stored wake-up has come (wake-ups
 *   beyond SQS's 15-minute delay, and anything a lost message left behind).
 * Messages are `{"workflowId": "..."}` as written by lib/queue/sqs.ts.
 */
import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../model/clock.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { DecisionMessage } from '../queue/sqs.ts';
import type { ExecutionStore } from '../store/ports.ts';

export interface DecisionConsumerDeps {
  decide(workflowId: string): Promise<void>;
  logger: Logger;
}

export interface TimerConsumerDeps {
  decisions: DecisionQueue;
  logger: Logger;
}

export interface SweeperDeps {
  executions: ExecutionStore;
  decisions: DecisionQueue;
  clock: Clock;
  logger: Logger;
}

/** Runs taken per sweep: one tick's worth; a longer backlog is finished by the next ticks. */
export const SWEEP_LIMIT = 1000;

/** Decide requests the sweeper has in flight at once (SQS latency, not CPU, bounds a sweep). */
const SWEEP_CONCURRENCY = 25;

/**
 * Decides every run named in a batch from the FIFO queue. Runs are decided concurrently, and each
 * run once however many of its messages the batch holds: a decide that starts after a message was
 * sent reads everything that message announced. When a decide fails, every message of that run is
 * reported failed (SQS partial batch response), so the run is retried after the visibility timeout
 * and, past maxReceiveCount, its messages land in the dead-letter queue; other runs are unaffected.
 */
export async function consumeDecisions(
  event: SQSEvent,
  deps: DecisionConsumerDeps,
): Promise<SQSBatchResponse> {
  return forEachRun(event, deps.logger, async (workflowId) => {
    try {
      await deps.decide(workflowId);
    } catch (error) {
      deps.logger.error('decide failed; its messages go back to the queue', {
        workflowId,
        error: describe(error),
      });
      throw error;
    }
  });
}

/** Forwards each due wake-up of a batch from the timer queue to the FIFO decision queue. */
export async function consumeTimers(event: SQSEvent, deps: TimerConsumerDeps): Promise<SQSBatchResponse> {
  return forEachRun(event, deps.logger, async (workflowId) => {
    try {
      await deps.decisions.request(workflowId);
    } catch (error) {
      deps.logger.error('forwarding a wake-up failed; it goes back to the queue', {
        workflowId,
        error: describe(error),
      });
      throw error;
    }
  });
}

export interface SweepResult {
  due: number;
  requested: number;
}

/**
 * Requests a decide of every run whose wake-up has come, up to `limit` of them. A failed request
 * is retried by the next sweep (the run stays due until a decide moves its wake-up), but the sweep
 * still fails at the end so that the function's error metric shows it.
 */
export async function sweepWakeups(deps: SweeperDeps, limit = SWEEP_LIMIT): Promise<SweepResult> {
  const due = await deps.executions.dueWakeups(deps.clock.now(), limit);
  let failed = 0;
  let firstError: unknown;
  await forEachLimited(due, SWEEP_CONCURRENCY, async ({ workflowId }) => {
    try {
      await deps.decisions.request(workflowId);
    } catch (error) {
      failed++;
      firstError ??= error;
    }
  });
  const result = { due: due.length, requested: due.length - failed };
  if (due.length >= limit) deps.logger.warn('more runs are due than one sweep takes', { limit });
  if (due.length > 0) deps.logger.info('swept due wake-ups', { ...result });
  if (failed > 0) {
    throw new Error(`${failed} of ${due.length} decide requests failed: ${describe(firstError)}`, {
      cause: firstError,
    });
  }
  return result;
}

/**
 * Groups a batch by run, calls `handle` once per run (runs concurrently) and reports the messages
 * of the runs whose call threw. A message that is not a decision message is logged and dropped:
 * retrying cannot repair it, and on the FIFO queue it would hold up its message group meanwhile.
 */
async function forEachRun(
  event: SQSEvent,
  logger: Logger,
  handle: (workflowId: string) => Promise<void>,
): Promise<SQSBatchResponse> {
  const byRun = new Map<string, string[]>();
  for (const record of event.Records) {
    const workflowId = workflowIdOf(record);
    if (workflowId === undefined) {
      logger.error('dropping a message that names no workflow', {
        messageId: record.messageId,
        body: record.body.slice(0, 200),
      });
      continue;
    }
    const messages = byRun.get(workflowId) ?? [];
    messages.push(record.messageId);
    byRun.set(workflowId, messages);
  }
  const batchItemFailures: SQSBatchItemFailure[] = [];
  await Promise.all(
    [...byRun].map(async ([workflowId, messageIds]) => {
      try {
        await handle(workflowId);
      } catch {
        for (const itemIdentifier of messageIds) batchItemFailures.push({ itemIdentifier });
      }
    }),
  );
  return { batchItemFailures };
}

function workflowIdOf(record: SQSRecord): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { workflowId } = body as Partial<Record<keyof DecisionMessage, unknown>>;
  return typeof workflowId === 'string' && workflowId !== '' ? workflowId : undefined;
}

/** Runs `fn` over `items` with at most `limit` calls in flight; `fn` must not throw. */
async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
