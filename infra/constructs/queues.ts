/**
 * The decision queues of lib/queue/sqs.ts: a FIFO queue of decide requests (message group = run,
 * so one run is decided by one consumer at a time) and a standard "timer" queue of delayed
 * wake-ups (FIFO queues take no per-message delay). Each has its own dead-letter queue, where a
 * message lands after its consumer failed it maxReceiveCount times.
 */
import { Duration, Names } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** Receives of one message before it moves to the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

/**
 * AWS asks for a visibility timeout of at least six times the consumer's timeout, so that Lambda's
 * own retries of a throttled batch do not make a message visible to a second consumer meanwhile.
 */
const VISIBILITY_FACTOR = 6;

/** Kept as long as SQS allows, to give someone time to look at what failed. */
const DLQ_RETENTION = Duration.days(14);

export interface DecisionQueuesProps {
  /** Timeout of the decider function, which consumes the decision queue. */
  deciderTimeout: Duration;
  /** Timeout of the timer function, which consumes the timer queue. */
  timerTimeout: Duration;
}

export class DecisionQueues extends Construct {
  readonly decisions: Queue;
  readonly decisionsDlq: Queue;
  readonly timers: Queue;
  readonly timersDlq: Queue;

  constructor(scope: Construct, id: string, props: DecisionQueuesProps) {
    super(scope, id);
    // A FIFO queue's dead-letter queue must be FIFO too.
    this.decisionsDlq = new Queue(this, 'DecisionsDlq', {
      queueName: fifoQueueName(this, 'decisions-dlq'),
      fifo: true,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: DLQ_RETENTION,
    });
    this.decisions = new Queue(this, 'Decisions', {
      queueName: fifoQueueName(this, 'decisions'),
      fifo: true,
      // The adapter sends a fresh MessageDeduplicationId per request: two requests with the same
      // body must both arrive, or the second change they announce would wait for the sweeper.
      contentBasedDeduplication: false,
      // High-throughput FIFO: limits apply per message group (per run), not to the whole queue.
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: times(props.deciderTimeout, VISIBILITY_FACTOR),
      deadLetterQueue: { queue: this.decisionsDlq, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    this.timersDlq = new Queue(this, 'TimersDlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: DLQ_RETENTION,
    });
    this.timers = new Queue(this, 'Timers', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: times(props.timerTimeout, VISIBILITY_FACTOR),
      deadLetterQueue: { queue: this.timersDlq, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
  }

  /** Lets a function request decides now (decision queue) and later (timer queue). */
  grantRequest(grantee: IGrantable): void {
    this.decisions.grantSendMessages(grantee);
    this.timers.grantSendMessages(grantee);
  }

  /** Lets a function request decides now only: what the timer consumer and the sweeper do. */
  grantRequestNow(grantee: IGrantable): void {
    this.decisions.grantSendMessages(grantee);
  }
}

/** SQS queue names: at most 80 characters, `.fifo` included. */
const MAX_QUEUE_NAME = 80;
const FIFO_SUFFIX = '.fifo';

/**
 * A FIFO queue's name, unique to this construct in its stack. CloudFormation does generate a
 * `.fifo` name when none is given, but from the full stack name and logical id, untruncated, so a
 * long stack name fails the deploy past 80 characters (aws/aws-cdk#11041).
 */
function fifoQueueName(scope: Construct, role: string): string {
  const maxLength = MAX_QUEUE_NAME - FIFO_SUFFIX.length - role.length - 1;
  return `${Names.uniqueResourceName(scope, { maxLength, separator: '-' })}-${role}${FIFO_SUFFIX}`;
}

function times(duration: Duration, factor: number): Duration {
  return Duration.seconds(duration.toSeconds() * factor);
}
