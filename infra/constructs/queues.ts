/**
 * The work queues of the consumers in lib/jobs, one per consumer, each with its own dead-letter
 * queue, where a message lands after its consumer failed it maxReceiveCount times. A FIFO queue
 * (the decision queue: message group = run, so one run is decided by one consumer at a time) has a
 * FIFO dead-letter queue; a standard one (the timer queue of delayed wake-ups: FIFO queues take no
 * per-message delay) a standard one.
 */
import { Duration, Names } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Consumer } from '../../lib/jobs/types.ts';
import type { WorkQueueName } from '../../lib/queue/work-queues.ts';
import { pascalCase } from './names.ts';

/**
 * AWS asks for a visibility timeout of at least six times the consumer's timeout, so that Lambda's
 * own retries of a throttled batch do not make a message visible to a second consumer meanwhile.
 */
const VISIBILITY_FACTOR = 6;

/** Kept as long as SQS allows, to give someone time to look at what failed. */
const DLQ_RETENTION = Duration.days(14);

export interface WorkQueuesProps {
  /** The consumers to create queues for; each names and describes its queue. */
  consumers: readonly Consumer<unknown>[];
}

interface QueuePair {
  queue: Queue;
  deadLetters: Queue;
}

export class WorkQueues extends Construct {
  private readonly pairs = new Map<WorkQueueName, QueuePair>();

  constructor(scope: Construct, id: string, props: WorkQueuesProps) {
    super(scope, id);
    for (const consumer of props.consumers) this.pairs.set(consumer.queue.name, this.create(consumer));
  }

  /** The queues, by name, in the order their consumers are listed. */
  get names(): WorkQueueName[] {
    return [...this.pairs.keys()];
  }

  queue(name: WorkQueueName): Queue {
    return this.pair(name).queue;
  }

  deadLetterQueue(name: WorkQueueName): Queue {
    return this.pair(name).deadLetters;
  }

  /** Lets a function send to the queue (its consumer's event source grants consuming). */
  grantSend(grantee: IGrantable, name: WorkQueueName): void {
    this.queue(name).grantSendMessages(grantee);
  }

  private pair(name: WorkQueueName): QueuePair {
    const pair = this.pairs.get(name);
    if (pair === undefined) throw new Error(`No work queue '${name}': its consumer is not deployed`);
    return pair;
  }

  private create({ queue: spec, timeoutSeconds }: Consumer<unknown>): QueuePair {
    // Construct ids (Decisions, DecisionsDlq...) are logical ids: they stay as long as the name does.
    const id = pascalCase(spec.name);
    const common = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true };
    const visibilityTimeout = Duration.seconds(timeoutSeconds * VISIBILITY_FACTOR);
    if (spec.type === 'fifo') {
      // A FIFO queue's dead-letter queue must be FIFO too.
      const deadLetters = new Queue(this, `${id}Dlq`, {
        ...common,
        queueName: fifoQueueName(this, `${spec.name}-dlq`),
        fifo: true,
        retentionPeriod: DLQ_RETENTION,
      });
      const queue = new Queue(this, id, {
        ...common,
        queueName: fifoQueueName(this, spec.name),
        fifo: true,
        // The adapter sends a fresh MessageDeduplicationId per message: two requests with the same
        // body must both arrive, or the second change they announce would wait for the sweeper.
        contentBasedDeduplication: false,
        // High-throughput FIFO: limits apply per message group (per run), not to the whole queue.
        deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
        fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
        visibilityTimeout,
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: spec.maxReceiveCount },
      });
      return { queue, deadLetters };
    }
    const deadLetters = new Queue(this, `${id}Dlq`, { ...common, retentionPeriod: DLQ_RETENTION });
    const queue = new Queue(this, id, {
      ...common,
      visibilityTimeout,
      deadLetterQueue: { queue: deadLetters, maxReceiveCount: spec.maxReceiveCount },
    });
    return { queue, deadLetters };
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
