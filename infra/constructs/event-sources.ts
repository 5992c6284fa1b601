/**
 * Outside sources and sinks (lib/deployment.ts OutsideSource; lib/engine/event-sinks/sinks.ts):
 * - a capability's `sqs:<queue>` source (its context list, e.g. `eventSources`): the queue (an
 *   existing one in this account and region) feeds the capability's source function, with partial
 *   batch failures;
 * - an `eventbridge:<bus>:<detail-type>` source: a rule on the bus matching that detail type
 *   targets the same function, with an input naming the source (an EventBridge event does not name
 *   its bus);
 * - `sqs:<queue>` and `eventbridge:<bus>` sinks (context `eventSinks`): the functions that run EVENT
 *   tasks may send to them. A sink not listed is refused by IAM, and the EVENT task fails with that
 *   reason.
 */
import { Arn, Stack } from 'aws-cdk-lib';
import { EventBus, EventField, Rule, RuleTargetInput } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { OutsideSource } from '../../lib/deployment.ts';
import { pascalCase } from './names.ts';

/** An outside sink EVENT tasks may publish to. */
export type EventSinkTarget = { type: 'sqs'; queue: string } | { type: 'eventbridge'; bus: string };

export interface EventSourcesProps {
  sources: readonly OutsideSource[];
  /** The function the sources feed. */
  target: IFunction;
  /** The name the function is told a message came from. */
  nameOf(source: OutsideSource): string;
}

const idOf = (text: string) => pascalCase(text.replace(/[^A-Za-z0-9]+/g, '-'));

export class EventSources extends Construct {
  constructor(scope: Construct, id: string, props: EventSourcesProps) {
    super(scope, id);
    for (const source of props.sources) {
      if (source.type === 'sqs') {
        const queue = Queue.fromQueueArn(this, `Queue${idOf(source.queue)}`, sqsArn(this, source.queue));
        props.target.addEventSource(
          new SqsEventSource(queue, { batchSize: 10, reportBatchItemFailures: true }),
        );
        continue;
      }
      const bus = EventBus.fromEventBusName(
        this,
        `Bus${idOf(source.bus)}${idOf(source.detailType)}`,
        source.bus,
      );
      new Rule(this, `Rule${idOf(source.bus)}${idOf(source.detailType)}`, {
        description: `Conductor event source ${props.nameOf(source)}`,
        eventBus: bus,
        eventPattern: { detailType: [source.detailType] },
        targets: [
          new LambdaFunction(props.target, {
            event: RuleTargetInput.fromObject({
              source: 'eventbridge',
              event: props.nameOf(source),
              id: EventField.eventId,
              detail: EventField.fromPath('$.detail'),
            }),
          }),
        ],
      });
    }
  }
}

/** Lets a function that runs EVENT tasks publish to the listed outside sinks, and to nothing else. */
export function grantEventSinks(
  scope: Construct,
  grantee: IGrantable,
  sinks: readonly EventSinkTarget[],
): void {
  const queues = sinks.flatMap((s) => (s.type === 'sqs' ? [sqsArn(scope, s.queue)] : []));
  const buses = sinks.flatMap((s) =>
    s.type === 'eventbridge'
      ? [Arn.format({ service: 'events', resource: 'event-bus', resourceName: s.bus }, Stack.of(scope))]
      : [],
  );
  if (queues.length > 0) {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage', 'sqs:GetQueueUrl'], resources: queues }),
    );
  }
  if (buses.length > 0) {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['events:PutEvents'], resources: buses }),
    );
  }
}

/** Parses the `eventSinks` context entries: `sqs:<queue>` or `eventbridge:<bus>`. */
export function parseEventSinkTarget(value: string): EventSinkTarget | string {
  const [type, name, ...rest] = value.split(':');
  if (rest.length === 0 && name && type === 'sqs') return { type: 'sqs', queue: name };
  if (rest.length === 0 && name && type === 'eventbridge') return { type: 'eventbridge', bus: name };
  return `Event sink '${value}' is not sqs:<queue> or eventbridge:<bus>`;
}

function sqsArn(scope: Construct, queue: string): string {
  return Arn.format({ service: 'sqs', resource: queue }, Stack.of(scope));
}
