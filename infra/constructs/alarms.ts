/**
 * What wakes someone up: CloudWatch alarms on the signs that work is being lost or delayed, all sent
 * to one SNS topic (with an email subscription when the stack is given an address):
 *   - any message in a dead-letter queue (a decide, wake-up, fire or system task gave up);
 *   - the oldest message of any work queue getting old (its consumer is not keeping up);
 *   - a function's error rate (errors over invocations, with minimum counts, so a single error
 *     in a quiet period does not page), and any throttle of it;
 *   - a table's throttled requests and DynamoDB's own errors on it;
 *   - the API answering 5xx.
 * A dead-letter queue's NumberOfMessagesSent does not count messages SQS moves there after
 * maxReceiveCount (SQS developer guide, "dead-letter queues"), so the alarm watches the number of
 * visible messages instead: it stays in alarm until someone has looked at (and removed) them.
 */
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** Alarm thresholds and evaluation, in one place so the docs can state them. */
export const ALARM_DEFAULTS = {
  /** A function's errors as a share of its invocations in one period, in percent. */
  functionErrorRatePercent: 5,
  /** Below this many invocations in a period the error rate is not judged (too few to tell). */
  functionMinInvocations: 10,
  /** Below this many errors in a period the error rate is not judged: one error never pages. */
  functionMinErrors: 2,
  /** Throttles of one function within one period. */
  functionThrottles: 1,
  /** Throttled requests of one table (all its operations) within one period. */
  tableThrottledRequests: 5,
  /** DynamoDB's own errors (HTTP 500) on one table within one period. */
  tableSystemErrors: 5,
  /** API 5xx answers within one period. */
  api5xx: 5,
  period: Duration.minutes(5),
} as const;

/**
 * The DynamoDB operations the service calls (lib/store/dynamodb), whose ThrottledRequests and
 * SystemErrors metrics (published per operation) the table alarms add up: eight metrics per alarm
 * (a metric math alarm takes at most ten), billed as eight alarm metrics each.
 */
export const TABLE_OPERATIONS: readonly Operation[] = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.SCAN,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
];

export interface ServiceAlarmsProps {
  /** Subscribes this address to the alarm topic (AWS sends a confirmation mail first). */
  email?: string;
}

export class ServiceAlarms extends Construct {
  readonly topic: Topic;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps = {}) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Conductor alarms', enforceSSL: true });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    this.action = new SnsAction(this.topic);
  }

  /** Any message in a dead-letter queue. */
  deadLetters(id: string, queue: IQueue, what: string): Alarm {
    return this.alarm(`${id}Dlq`, {
      metric: queue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: 'Maximum',
      }),
      threshold: 1,
      description: `${what}: a message is in the dead-letter queue ${queue.queueName}`,
    });
  }

  /** The oldest message of a queue older than `seconds`. */
  oldestMessage(id: string, queue: IQueue, seconds: number, what: string): Alarm {
    return this.alarm(`${id}Age`, {
      metric: queue.metricApproximateAgeOfOldestMessage({
        period: Duration.minutes(1),
        statistic: 'Maximum',
      }),
      threshold: seconds,
      description: `${what}: the oldest message has waited ${seconds} s or more`,
    });
  }

  /**
   * A function's error rate and its throttles. The rate is metric math over one period: errors as
   * a percentage of invocations, counted as 0 unless the function had at least
   * functionMinInvocations invocations and functionMinErrors errors, so one error of a quiet
   * function does not page while a function failing a share of its work does. Work that fails for
   * good is also caught elsewhere: by the dead-letter queue alarms (consumers, periodic jobs) and
   * the API's 5xx alarm (route groups).
   */
  function(id: string, fn: IFunction): Alarm[] {
    const { period, functionErrorRatePercent, functionMinInvocations, functionMinErrors } = ALARM_DEFAULTS;
    const errorRate = new MathExpression({
      expression: `IF(invocations >= ${functionMinInvocations} AND errors >= ${functionMinErrors}, 100 * errors / invocations, 0)`,
      usingMetrics: {
        errors: fn.metricErrors({ period, statistic: 'Sum' }),
        invocations: fn.metricInvocations({ period, statistic: 'Sum' }),
      },
      label: 'Error rate (%)',
      period,
    });
    return [
      this.alarm(`${id}ErrorRate`, {
        metric: errorRate,
        threshold: functionErrorRatePercent,
        description: `Function ${id} failed ${functionErrorRatePercent}% or more of its invocations in 5 minutes (at least ${functionMinErrors} errors in ${functionMinInvocations} or more invocations)`,
      }),
      this.alarm(`${id}Throttles`, {
        metric: fn.metricThrottles({ period, statistic: 'Sum' }),
        threshold: ALARM_DEFAULTS.functionThrottles,
        description: `Function ${id} was throttled`,
      }),
    ];
  }

  /**
   * A table's throttled requests (capacity, or a hot partition, refused them; the service retries,
   * so they show first as latency) and DynamoDB's own errors on it, each summed over the
   * operations the service calls.
   */
  table(id: string, table: ITable): Alarm[] {
    const { period } = ALARM_DEFAULTS;
    const operations = [...TABLE_OPERATIONS];
    return [
      this.alarm(`${id}TableThrottles`, {
        metric: table.metricThrottledRequestsForOperations({ operations, period }),
        threshold: ALARM_DEFAULTS.tableThrottledRequests,
        description: `Table ${id}: ${ALARM_DEFAULTS.tableThrottledRequests} or more requests throttled in 5 minutes`,
      }),
      this.alarm(`${id}TableSystemErrors`, {
        metric: table.metricSystemErrorsForOperations({ operations, period }),
        threshold: ALARM_DEFAULTS.tableSystemErrors,
        description: `Table ${id}: DynamoDB answered ${ALARM_DEFAULTS.tableSystemErrors} or more requests with an internal error in 5 minutes`,
      }),
    ];
  }

  /** 5xx answers of the HTTP API (the gateway's own and the functions'). */
  api(api: HttpApi): Alarm {
    return this.alarm('Api5xx', {
      metric: api.metricServerError({ period: ALARM_DEFAULTS.period, statistic: 'Sum' }),
      threshold: ALARM_DEFAULTS.api5xx,
      description: `The API answered ${ALARM_DEFAULTS.api5xx} or more 5xx responses in 5 minutes`,
    });
  }

  private alarm(id: string, spec: { metric: IMetric; threshold: number; description: string }): Alarm {
    const alarm = new Alarm(this, id, {
      metric: spec.metric,
      threshold: spec.threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // No data means nothing happened (no errors, an empty queue), not a failure to report.
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: spec.description,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    return alarm;
  }
}
