/**
 * The AWS cost model (`npm run bench:cost`, bench/README.md): list prices, and the cost of one
 * SIMPLE task execution and of one idle worker from counted requests, invocations, billed time,
 * DynamoDB request units, SQS and S3 requests. Prices are the published on-demand list prices of
 * us-east-1 (N. Virginia) as of 2025 (after DynamoDB's November 2024 on-demand price cut), without
 * free tiers; check https://aws.amazon.com/<service>/pricing/ before relying on them.
 */
import { decider } from '../../lib/jobs/decision-consumers.ts';
import { QUEUE_SHARDS } from '../../lib/store/dynamodb/queue.ts';

/**
 * Decision messages per decider invocation as the stack configures it: the batch size of the
 * decision queue's SQS event source (lib/jobs/decision-consumers.ts, infra/stack.ts). A FIFO event
 * source has no batching window, so a batch is full only while a backlog waits: this is the
 * cheapest case, batch 1 the costliest, and the summary prints both.
 */
export const CONFIGURED_DECIDER_BATCH = decider.queue.batchSize;

export const PRICES = {
  region: 'us-east-1',
  asOf: '2025 list prices (no free tier)',
  /** API Gateway HTTP API, per request (first 300 million a month; 512 KB each). */
  apiRequest: 1.0 / 1e6,
  /** Lambda, per request. */
  lambdaRequest: 0.2 / 1e6,
  /** Lambda arm64, per GB-second (first 7.5 billion GB-s a month). */
  lambdaGbSecond: 0.0000133334,
  /** DynamoDB on-demand, per write request unit (1 KB) and read request unit (4 KB, consistent). */
  dynamoWrite: 0.625 / 1e6,
  dynamoRead: 0.125 / 1e6,
  /**
   * DynamoDB provisioned capacity (`-c tableCapacity=provisioned`), per write unit-hour (one 1 KB
   * write a second) and read unit-hour (one 4 KB consistent read a second).
   */
  dynamoWriteUnitHour: 0.00065,
  dynamoReadUnitHour: 0.00013,
  /** SQS, per request (64 KB): FIFO and standard queues. */
  sqsFifoRequest: 0.5 / 1e6,
  sqsStandardRequest: 0.4 / 1e6,
  /** S3 Standard, per PUT and per GET. */
  s3Put: 0.005 / 1000,
  s3Get: 0.0004 / 1000,
  /** Step Functions Standard, per state transition. */
  stepFunctionsTransition: 25 / 1e6,
} as const;

/** Lambda's CPU share grows with memory: one full vCPU at 1,769 MB. */
const FULL_VCPU_MB = 1769;

export interface FunctionShape {
  memoryMb: number;
}

/**
 * Billed milliseconds of one invocation: its CPU time stretched by the memory's CPU share, plus the
 * sequential round trips it waits on, rounded up to a whole millisecond (Lambda bills 1 ms steps).
 */
export function billedMs(
  fn: FunctionShape,
  work: { cpuMs: number; storeCalls: number; sends: number },
  latency: { storeMs: number; sqsMs: number },
): number {
  const cpuShare = Math.min(1, fn.memoryMb / FULL_VCPU_MB);
  return Math.ceil(work.cpuMs / cpuShare + work.storeCalls * latency.storeMs + work.sends * latency.sqsMs);
}

export const lambdaCost = (fn: FunctionShape, invocations: number, billedMsEach: number): number =>
  invocations * (PRICES.lambdaRequest + (fn.memoryMb / 1024) * (billedMsEach / 1000) * PRICES.lambdaGbSecond);

/** Per SIMPLE task execution: what a benchmark run counted, divided by the tasks it completed. */
export interface PerTask {
  /** HTTP requests the clients sent (starts, polls, updates): one API request and one invocation each. */
  httpRequests: number;
  /** Store calls made while answering them (sequential round trips of the HTTP functions). */
  httpStoreCalls: number;
  /** CPU of the service per HTTP request, ms (the local server's; the same code runs in Lambda). */
  httpCpuMs: number;
  /** Decide requests (FIFO messages) and wake-ups sent through the standard timer queue. */
  decisionMessages: number;
  timerMessages: number;
  /** Store calls and CPU of the decides, per decision message. */
  decideStoreCalls: number;
  decideCpuMs: number;
  readUnits: number;
  writeUnits: number;
  s3Puts: number;
  s3Gets: number;
}

export interface CostOptions {
  http: FunctionShape;
  decider: FunctionShape;
  timer: FunctionShape;
  /**
   * Messages per decider invocation: 1, every decide its own invocation (the costliest case), up
   * to CONFIGURED_DECIDER_BATCH, full batches of distinct runs. The runs of a batch are decided
   * concurrently (lib/jobs/batch.ts), so their CPU adds up and their round trips overlap.
   */
  deciderBatch: number;
  storeMs: number;
  sqsMs: number;
  /**
   * Table billing: on-demand (the default), or provisioned capacity kept at `utilization` (0..1)
   * by auto scaling (TARGET_UTILIZATION in infra/constructs/data.ts), priced per unit used.
   */
  tables?: { mode: 'on-demand' } | { mode: 'provisioned'; utilization: number };
}

/** What one request unit costs on the tables' billing. */
function unitPrices(tables: CostOptions['tables']): { write: number; read: number; label: string } {
  if (tables?.mode !== 'provisioned')
    return { write: PRICES.dynamoWrite, read: PRICES.dynamoRead, label: 'on-demand' };
  const perUnitUsed = (unitHour: number) => unitHour / 3600 / tables.utilization;
  return {
    write: perUnitUsed(PRICES.dynamoWriteUnitHour),
    read: perUnitUsed(PRICES.dynamoReadUnitHour),
    label: `provisioned at ${Math.round(tables.utilization * 100)}% use`,
  };
}

export interface CostLine {
  item: string;
  perTask: number;
  detail: string;
}

export const totalPerTask = (lines: readonly CostLine[]): number =>
  lines.reduce((sum, line) => sum + line.perTask, 0);

/**
 * The lines that are not DynamoDB: what a task costs in requests and compute whatever its storage
 * costs (API Gateway, Lambda, SQS, S3). Their total is this design's floor per task.
 */
export const withoutStorage = (lines: readonly CostLine[]): CostLine[] =>
  lines.filter((line) => !line.item.startsWith('DynamoDB'));

/** Cost of one SIMPLE task execution, by item. */
export function costPerTask(t: PerTask, o: CostOptions): CostLine[] {
  const latency = { storeMs: o.storeMs, sqsMs: o.sqsMs };
  const httpStoreCallsEach = t.httpStoreCalls / t.httpRequests;
  const httpBilled = billedMs(
    o.http,
    { cpuMs: t.httpCpuMs, storeCalls: httpStoreCallsEach, sends: 0 },
    latency,
  );
  const deciderInvocations = t.decisionMessages / o.deciderBatch;
  const deciderBilled = billedMs(
    o.decider,
    { cpuMs: t.decideCpuMs * o.deciderBatch, storeCalls: t.decideStoreCalls, sends: 1 },
    latency,
  );
  const timerBilled = billedMs(o.timer, { cpuMs: 0.2, storeCalls: 0, sends: 1 }, latency);
  // Send, plus the event source's receive and (batch) delete per batch.
  const fifoRequests = t.decisionMessages + t.timerMessages + 2 * deciderInvocations;
  const standardRequests = t.timerMessages * 3;
  const units = unitPrices(o.tables);
  return [
    {
      item: 'API Gateway HTTP API requests',
      perTask: t.httpRequests * PRICES.apiRequest,
      detail: `${t.httpRequests.toFixed(2)} requests`,
    },
    {
      item: 'Lambda, HTTP functions',
      perTask: lambdaCost(o.http, t.httpRequests, httpBilled),
      detail: `${t.httpRequests.toFixed(2)} invocations x ${httpBilled} ms at ${o.http.memoryMb} MB`,
    },
    {
      item: 'Lambda, decider',
      perTask: lambdaCost(o.decider, deciderInvocations, deciderBilled),
      detail: `${deciderInvocations.toFixed(2)} invocations x ${deciderBilled} ms at ${o.decider.memoryMb} MB`,
    },
    {
      item: 'Lambda, timer forwarder',
      perTask: lambdaCost(o.timer, t.timerMessages, timerBilled),
      detail: `${t.timerMessages.toFixed(2)} invocations x ${timerBilled} ms`,
    },
    {
      item: 'DynamoDB writes',
      perTask: t.writeUnits * units.write,
      detail: `${t.writeUnits.toFixed(2)} WRU (item sizes, index writes included), ${units.label}`,
    },
    {
      item: 'DynamoDB reads',
      perTask: t.readUnits * units.read,
      detail: `${t.readUnits.toFixed(2)} RRU (half a unit per eventually consistent read), ${units.label}`,
    },
    {
      item: 'SQS requests',
      perTask: fifoRequests * PRICES.sqsFifoRequest + standardRequests * PRICES.sqsStandardRequest,
      detail: `${fifoRequests.toFixed(2)} FIFO + ${standardRequests.toFixed(2)} standard`,
    },
    {
      item: 'S3 requests (large payloads only)',
      perTask: t.s3Puts * PRICES.s3Put + t.s3Gets * PRICES.s3Get,
      detail: `${t.s3Puts.toFixed(2)} PUT + ${t.s3Gets.toFixed(2)} GET`,
    },
  ];
}

export interface IdlePolling {
  name: string;
  /** The SDK's `pollInterval` (sleep after every poll) and `batchPollingTimeout` (long-poll wait), ms. */
  pollIntervalMs: number;
  pollTimeoutMs: number;
}

export interface IdleCost {
  pollsPerSecond: number;
  readsPerPoll: number;
  monthly: number;
  billedMsPerPoll: number;
}

const SECONDS_PER_MONTH = 30 * 24 * 3600;

/**
 * Reads one empty long poll makes on AWS: one look when it arrives, then one per re-read tick
 * (service.tasks.poll.reread-initial, doubling up to reread-max) that comes before its timeout;
 * each look is one Query per shard of the queue (QUEUE_SHARDS).
 */
export function readsPerEmptyPoll(timeoutMs: number, rereadInitialMs: number, rereadMaxMs: number): number {
  let reads = 1;
  let at = rereadInitialMs;
  let interval = rereadInitialMs;
  while (at < timeoutMs) {
    reads++;
    interval = Math.min(rereadMaxMs, interval * 2);
    at += interval;
  }
  return reads * QUEUE_SHARDS;
}

/** Read units of one empty queue Query: the peek reads eventually consistent (lib/store/dynamodb/queue.ts). */
export const EMPTY_PEEK_QUERY_UNITS = 0.5;

/**
 * One idle worker (one task type, concurrency 1) with the official JavaScript SDK's loop: poll,
 * then sleep `pollInterval` (its adaptive back-off is capped at pollInterval, so it never waits
 * longer). Every poll is an API request and an invocation billed for its wait; its queue reads cost
 * half a read unit each (an empty eventually consistent Query); poll data is written at most once
 * a second.
 */
export function idleWorkerCost(
  polling: IdlePolling,
  o: { http: FunctionShape; rttMs: number; rereadInitialMs: number; rereadMaxMs: number; storeMs: number },
): IdleCost {
  const cycleMs = polling.pollTimeoutMs + polling.pollIntervalMs + o.rttMs;
  const pollsPerSecond = 1000 / cycleMs;
  const readsPerPoll = readsPerEmptyPoll(polling.pollTimeoutMs, o.rereadInitialMs, o.rereadMaxMs);
  const billedMsPerPoll = Math.ceil(polling.pollTimeoutMs + o.storeMs);
  const perPoll =
    PRICES.apiRequest +
    lambdaCost(o.http, 1, billedMsPerPoll) +
    readsPerPoll * EMPTY_PEEK_QUERY_UNITS * PRICES.dynamoRead;
  const pollDataWritesPerSecond = Math.min(1, pollsPerSecond);
  const monthly =
    SECONDS_PER_MONTH * (pollsPerSecond * perPoll + pollDataWritesPerSecond * PRICES.dynamoWrite);
  return { pollsPerSecond, readsPerPoll, monthly, billedMsPerPoll };
}
