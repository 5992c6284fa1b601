/**
 * Background work as data. A periodic job runs on a rate (locally on an interval, on AWS from an
 * EventBridge rule); a consumer handles the messages of one work queue (locally in process, on
 * AWS from an SQS event source with its dead-letter queue). Both hosts and the CDK stack read the
 * same descriptors (each capability's, folded in lib/capabilities.ts), so a job behaves the same locally and
 * on AWS. Descriptors are data plus functions over ports: no AWS SDK here.
 */
import type { GateName, PropertyName } from '../config/properties.ts';
import type { FunctionGrants } from '../deployment.ts';
import type { Logger } from '../log/logger.ts';
import type { Metrics } from '../log/metrics.ts';
import type { Clock } from '../model/clock.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { SystemTaskMessage, WorkQueueName, WorkQueueType } from '../queue/work-queues.ts';
import type { ExecutionChange, SearchIndexWriter } from '../search/ports.ts';
import type { TableSpec } from '../store/dynamodb/tables.ts';
import type { ExpiredRunRemover, Stores } from '../store/ports.ts';

/** Names are the functions' (functions/<name>.ts): each host finds its descriptor by name (lib/capabilities.ts). */
export type JobName = string;
export type StreamConsumerName = string;
export type ConsumerName = string;

/** What the function that runs a job or consumer may touch on AWS (the stack grants exactly this). */
export type Grants = FunctionGrants;

/**
 * What every job and consumer works with, built by each host from its services; a capability's own
 * jobs and consumers also get what it provides (Capability.provides), as `P`.
 */
export interface JobDeps {
  stores: Stores;
  decisions: DecisionQueue;
  clock: Clock;
  logger: Logger;
  /** DeadLetterArrivals, MessagesDropped, WakeupsDue (EMF on AWS); none when absent. */
  metrics?: Metrics;
  /** Decides the run; `taskIds`, when given, are the only rows that changed (DecisionMessage). */
  decide(workflowId: string, taskIds?: readonly string[]): Promise<void>;
  /** Carries out an async system task handed off the decider (HTTP; lib/engine/system-tasks.ts). */
  runSystemTask(message: SystemTaskMessage): Promise<void>;
}

/** An EventBridge-style rate. */
export type Rate = `${number} minute` | `${number} minutes`;

export function rateMs(rate: Rate): number {
  return Number.parseFloat(rate) * 60_000;
}

export interface JobContext {
  /**
   * The host has just started and lost whatever in-memory timers it had (the local host): the job
   * catches up on everything it may have missed, not only what is due by `now`.
   */
  catchUp: boolean;
}

export interface PeriodicJob<P extends object = object, R = unknown> {
  name: JobName;
  /**
   * It reads what its capability provides (Capability.provides, its `P` deps): a Lambda function
   * that runs it is built with that capability (functions/). Work that reads only the engine's
   * ports leaves it out, so its function need not carry the capability.
   */
  readsProvided?: true;
  /** One line for the function's description. */
  summary: string;
  every: Rate;
  /** Runs only while this gate is on. */
  gate?: GateName;
  /** How long one run may take on AWS; it must end before the next run starts. */
  timeoutSeconds: number;
  run(deps: JobDeps & P, now: number, context: JobContext): Promise<R>;
  grants: Grants;
}

/**
 * The oldest-message alarm of a queue whose messages may be sent with a delay (wake-ups, schedule
 * fires, retried HTTP tasks): SQS's longest delay (15 minutes) and five minutes more.
 */
export const DELAYED_QUEUE_AGE_ALARM_SECONDS = 15 * 60 + 5 * 60;

export interface QueueSpec {
  name: WorkQueueName;
  type: WorkQueueType;
  /** The property that tells a function the queue's URL on AWS (set by the stack where it may send). */
  urlProperty: PropertyName;
  /** Messages handed to one invocation on AWS (SQS allows at most 10 from a FIFO queue). */
  batchSize: number;
  /** Receives of one message before it moves to the dead-letter queue. */
  maxReceiveCount: number;
  /**
   * Most concurrent invocations the queue's event source starts on AWS (SQS event sources allow
   * 2 to 1000): a backlog is worked off at this pace instead of taking the account's concurrency
   * from the API functions.
   */
  maxConcurrency: number;
  /**
   * The age of the queue's oldest message, in seconds, that raises an alarm on AWS (the consumer
   * is not keeping up, or not consuming at all). A queue whose messages are sent with a delay
   * (SQS delays one at most 15 minutes) allows for it: DELAYED_QUEUE_AGE_ALARM_SECONDS.
   */
  oldestMessageAlarmSeconds: number;
  /** The stack output naming the dead-letter queue, and what lands there. */
  deadLetters: { output: string; description: string };
  /** What one message is, in a sender's error when it cannot be queued ("schedule fire"). */
  what?: string;
}

export interface Consumer<M, P extends object = object> {
  name: ConsumerName;
  /**
   * It reads what its capability provides (Capability.provides, its `P` deps): a Lambda function
   * that runs it is built with that capability (functions/). Work that reads only the engine's
   * ports leaves it out, so its function need not carry the capability.
   */
  readsProvided?: true;
  summary: string;
  /** Deployed, and run, only while this gate is on. */
  gate?: GateName;
  queue: QueueSpec;
  /** The message from its parsed JSON body; undefined when retrying could not repair it (dropped). */
  decode(body: unknown): M | undefined;
  /**
   * Messages with the same key in one batch are handled in order, one after another; messages
   * without a key on their own, concurrently.
   */
  key(message: M): string | undefined;
  /**
   * Handle one message per key and batch, the batch's messages of the key made one by this: for
   * messages that ask for work on a key ("decide this run"), where the work done for one covers
   * all of them. Absent, each message is handled.
   */
  coalesce?(waiting: M, next: M): M;
  /**
   * What a message SQS delivers again stands for (its handling failed before, or its batch's did);
   * the message itself when absent.
   */
  again?(message: M): M;
  handle(message: M, deps: JobDeps & P): Promise<void>;
  /** How the local host runs it (lib/jobs/local-consumers.ts); as on AWS when absent. */
  local?: LocalDelivery;
  /** How long one batch may take on AWS; the queue's visibility timeout is derived from it. */
  timeoutSeconds: number;
  /**
   * Runs make progress through it (decides, wake-ups): on AWS its function reserves its queue's
   * maxConcurrency (unless the stack is deployed with `-c reserveConcurrency=false`), so a burst
   * of the API functions never takes the account's concurrency from it (and it never takes more).
   */
  reserved?: boolean;
  memorySize?: number;
  /** The function evaluates scripts (ships the QuickJS worker). */
  scriptWorker?: boolean;
  grants: Grants;
}

/**
 * How the local consumer host delivers a queue's messages where it differs from SQS: by default a
 * failed message is delivered again at most `maxReceiveCount` times, and handlers run at once.
 */
export interface LocalDelivery {
  /** `unbounded`: a failed message is delivered again for as long as it takes (nobody reads a DLQ locally). */
  attempts?: 'unbounded';
  /** At most this many handlers at once (an integer property); later messages wait their turn. */
  concurrency?: PropertyName;
  /**
   * The local host does not run this consumer: what stands in for its queue there, and why. Its
   * senders get that stand-in from the host.
   */
  standIn?: string;
}

/**
 * What a stream consumer works with, each made when first asked for (a consumer uses one): the
 * search index it feeds, the remover of what expired runs leave.
 */
export interface StreamConsumerDeps {
  index(): SearchIndexWriter;
  expiredRuns(): ExpiredRunRemover;
  logger: Logger;
}

/** What a deployment chose that decides which stream consumers it runs (infra/stack.ts). */
export interface StreamChoices {
  searchBackend: 'store' | 'opensearch';
  /** The service properties set for every function (`-c service.x=y`). */
  properties: Readonly<Record<string, string>>;
}

/**
 * A consumer of a table's change stream (DynamoDB Streams on AWS): the search indexer, the cleaner
 * of expired runs. Unlike a queue consumer it has no queue of its own; the stream keeps each item's
 * changes in order, and one batch per stream shard is handled at a time, so applying a batch in
 * order converges on the items' latest state. A batch that fails is retried whole (then in halves)
 * and, past `retryAttempts`, named in the dead-letter queue. Deployed only where it has work: the
 * stack streams a table only for the consumers it deploys. The local host has no stream.
 */
export interface StreamConsumer {
  name: StreamConsumerName;
  summary: string;
  /** Whether the stack deploys it (and its table's stream). */
  deployedWith(choices: StreamChoices): boolean;
  /**
   * Event filter patterns on the stream records (Lambda event filtering): a record that matches
   * none never invokes the function, and is not billed. None: every record.
   */
  filters?: readonly Record<string, unknown>[];
  /** The table whose change stream feeds it. */
  table: TableSpec;
  /** Records per invocation. */
  batchSize: number;
  /** Retries of a failing batch before its records are named in the dead-letter queue. */
  retryAttempts: number;
  /** The stack output naming the dead-letter queue, and what lands there. */
  deadLetters: { output: string; description: string };
  timeoutSeconds: number;
  /** Apply the changes, in stream order; throw to have the batch delivered again. */
  handle(changes: readonly ExecutionChange[], deps: StreamConsumerDeps): Promise<void>;
  grants: Grants;
}
