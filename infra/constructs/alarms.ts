/**
 * What wakes someone up: CloudWatch alarms on the signs that work is being lost or delayed, all sent
 * to one SNS topic (with an email subscription when the stack is given an address):
 *   - any message in a dead-letter queue (a decide, wake-up, fire or system task gave up);
 *   - the decision queue's oldest message getting old (decides are not keeping up);
 *   - a function's errors or throttles;
 *   - the API answering 5xx.
 * A dead-letter queue's NumberOfMessagesSent does not count messages SQS moves there after
 * maxReceiveCount (SQS developer guide, "dead-letter queues"), so the alarm watches the number of
 * visible messages instead: it stays in alarm until someone has looked at (and removed) them.
 */
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** Alarm thresholds and evaluation, in one place so the README can state them. */
export const ALARM_DEFAULTS = {
  /** The decision queue's oldest message, in seconds: a decide normally starts within a second. */
  decisionAgeSeconds: 300,
  /** Errors (or throttles) of one function within one period. */
  functionErrors: 1,
  /** API 5xx answers within one period. */
  api5xx: 5,
  period: Duration.minutes(5),
} as const;

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

  /** Errors and throttles of a function. */
  function(id: string, fn: IFunction): Alarm[] {
    const period = ALARM_DEFAULTS.period;
    return [
      this.alarm(`${id}Errors`, {
        metric: fn.metricErrors({ period, statistic: 'Sum' }),
        threshold: ALARM_DEFAULTS.functionErrors,
        description: `Function ${id} failed`,
      }),
      this.alarm(`${id}Throttles`, {
        metric: fn.metricThrottles({ period, statistic: 'Sum' }),
        threshold: ALARM_DEFAULTS.functionErrors,
        description: `Function ${id} was throttled`,
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
