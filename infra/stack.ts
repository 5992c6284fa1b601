/**
 * The whole service on AWS in one stack: the data (tables, files bucket), the HTTP API with one
 * function per route group whose gate is on, and the decision pipeline (ARCHITECTURE.md "The
 * engine", "Durable timers"): the FIFO decision queue and its decider, the timer queue and its
 * consumer, and the one-minute wake-up sweeper. Route groups, their tables and grants come from
 * the capability list (lib/capabilities.ts), background work from lib/jobs (JOBS, one function
 * and EventBridge rule each; CONSUMERS, one function, queue and dead-letter queue each), and
 * properties from properties.ts, so a new capability, job or consumer is picked up here with no
 * edit; what each function may touch is declared in its descriptor. The management UI is served
 * by CloudFront from S3 on the same origin as the API (infra/constructs/ui.ts).
 */
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { CAPABILITIES } from '../lib/capabilities.ts';
import type { Capability, FunctionGrants } from '../lib/capability.ts';
import { envNameOf, findSpec } from '../lib/config/load.ts';
import { GATES, type GateName, PROPERTIES } from '../lib/config/properties.ts';
import { CONSUMERS, JOBS } from '../lib/jobs/index.ts';
import { type Consumer, type PeriodicJob, rateMs } from '../lib/jobs/types.ts';
import { QUEUE_URL_PROPERTIES } from '../lib/queue/work-queues.ts';
import { tablePropertyName } from '../lib/store/dynamodb/tables.ts';
import { ServiceApi } from './constructs/api.ts';
import { ServiceData } from './constructs/data.ts';
import { pascalCase } from './constructs/names.ts';
import { WorkQueues } from './constructs/queues.ts';
import { ServiceFunction, type ServiceFunctionProps } from './constructs/service-function.ts';
import { ManagementUi } from './constructs/ui.ts';

/** On/off per gated feature (SPEC.md item 7); keys match GATES in lib/config/properties.ts. */
export type Gates = Record<GateName, boolean>;

export interface ConductorStackProps extends StackProps {
  gates: Gates;
  /** The capabilities to deploy; defaults to CAPABILITIES. Those whose gate is off are left out. */
  capabilities?: readonly Capability[];
  /** A built management UI to serve as it is (default: ui/dist, built first when stale). */
  uiDir?: string;
}

/** The description of a job's or consumer's function; tests find the function by it. */
export function backgroundDescription(work: { name: string; summary: string }): string {
  return `Conductor ${work.name}: ${work.summary}`;
}

interface FunctionSpec extends Omit<ServiceFunctionProps, 'environment'> {
  grants: FunctionGrants;
}

export class ConductorStack extends Stack {
  private readonly data: ServiceData;
  private readonly queues: WorkQueues;
  private readonly gates: Gates;

  constructor(scope: Construct, id: string, props: ConductorStackProps) {
    super(scope, id, props);
    this.gates = props.gates;

    this.data = new ServiceData(this, 'Data');
    // The bucket's `payloads/` prefix is granted to the functions that read and write runs
    // (FunctionGrants.payloads); file storage will grant its own prefix next to its functions.
    const api = new ServiceApi(this, 'Api');
    const consumers = CONSUMERS.filter((consumer) => gateOn(consumer, props.gates));
    this.queues = new WorkQueues(this, 'Queues', { consumers });

    for (const capability of enabledGroups(props.capabilities ?? CAPABILITIES, props.gates)) {
      const fn = this.serviceFunction(`${pascalCase(capability.name)}Function`, {
        entry: `functions/${capability.name}.ts`,
        description: `Conductor route group '${capability.name}'`,
        grants: capability.grants,
      });
      api.addRoutes(capability.name, capability.apiRoutes, fn);
    }

    for (const consumer of consumers) this.consumer(consumer);
    for (const job of JOBS.filter((j) => gateOn(j, props.gates))) this.job(job);

    new ManagementUi(this, 'Ui', { api: api.httpApi, dir: props.uiDir });

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL of the Conductor API' });
    new CfnOutput(this, 'FilesBucketName', { value: this.data.bucket.bucketName });
    for (const [tableId, table] of this.data.tables) {
      new CfnOutput(this, `${pascalCase(tableId)}TableName`, { value: table.tableName });
    }
  }

  /** A consumer's function, fed by its queue (created in WorkQueues) in batches. */
  private consumer(consumer: Consumer<unknown>): void {
    const { queue } = consumer;
    const fn = this.serviceFunction(`${pascalCase(consumer.name)}Function`, {
      entry: `functions/${consumer.name}.ts`,
      description: backgroundDescription(consumer),
      timeout: Duration.seconds(consumer.timeoutSeconds),
      memorySize: consumer.memorySize,
      scriptWorker: consumer.scriptWorker,
      grants: consumer.grants,
    });
    // The event source grants consuming (receive, delete, change visibility) on its queue; partial
    // batch responses (lib/jobs/batch.ts) send back only the messages that failed.
    fn.addEventSource(
      new SqsEventSource(this.queues.queue(queue.name), {
        batchSize: queue.batchSize,
        reportBatchItemFailures: true,
      }),
    );
    new CfnOutput(this, queue.deadLetters.output, {
      value: this.queues.deadLetterQueue(queue.name).queueUrl,
      description: queue.deadLetters.description,
    });
  }

  /** A periodic job's function, run by an EventBridge rule on the job's rate. */
  private job(job: PeriodicJob): void {
    const fn = this.serviceFunction(`${pascalCase(job.name)}Function`, {
      entry: `functions/${job.name}.ts`,
      description: backgroundDescription(job),
      timeout: Duration.seconds(job.timeoutSeconds),
      grants: job.grants,
    });
    // The next tick is the retry: Lambda's own async retries would only overlap it.
    fn.configureAsyncInvoke({ retryAttempts: 0 });
    new Rule(this, `${pascalCase(job.name)}Schedule`, {
      description: `Runs the Conductor ${job.name} every ${job.every}`,
      schedule: Schedule.rate(Duration.minutes(rateMs(job.every) / 60_000)),
      targets: [new LambdaFunction(fn)],
    });
  }

  /** A function with exactly the tables and queues it is granted, and told the names of those only. */
  private serviceFunction(id: string, spec: FunctionSpec): ServiceFunction {
    const { grants, ...props } = spec;
    const fn = new ServiceFunction(this, id, { ...props, environment: this.serviceEnvironment(grants) });
    for (const { table, access } of grants.tables) this.data.grantTable(fn, table, access);
    for (const queue of grants.sends) this.queues.grantSend(fn, queue);
    if (grants.payloads) this.data.grantPayloads(fn, grants.payloads);
    return fn;
  }

  /**
   * The `service.*` properties a function gets, as the environment variables lib/config/load.ts
   * reads: the same for every function but for the table names it may use, the queue URLs of
   * functions that send to a work queue and the payload bucket of functions granted it. Those are told every queue's URL: the decision queue is
   * one adapter over two queues (lib/runtime/aws.ts builds it from both URLs), and the role, not
   * the environment, limits where a function may send. Only properties that exist in properties.ts: a typo, or a
   * table the service cannot be told the name of, fails the synth.
   */
  private serviceEnvironment({ tables, sends, payloads }: FunctionGrants): Record<string, string> {
    const properties: Record<string, string> = {
      'service.store': 'dynamodb',
      'service.log.format': 'json',
      'service.dynamodb.region': this.region,
    };
    // Table names are generated by CloudFormation (so two stacks can share an account), hence
    // passed one by one rather than through service.dynamodb.table-prefix.
    for (const { table } of tables) {
      properties[tablePropertyName(table)] = this.data.tableOf(table).tableName;
    }
    if (sends.length > 0) {
      for (const queue of this.queues.names) {
        properties[QUEUE_URL_PROPERTIES[queue]] = this.queues.queue(queue).queueUrl;
      }
    }
    if (payloads) properties['service.aws.payload-bucket'] = this.data.bucket.bucketName;
    for (const gate of Object.keys(GATES) as GateName[]) {
      properties[GATES[gate]] = String(this.gates[gate]);
    }
    return Object.fromEntries(
      Object.entries(properties).map(([name, value]) => [envNameOf(knownProperty(name)), value]),
    );
  }
}

/** Whether a job or consumer is deployed with these gates: ungated ones always. */
function gateOn(work: { gate?: GateName }, gates: Gates): boolean {
  return work.gate === undefined || gates[work.gate];
}

/** The capabilities that exist with these gates: ungated ones always, gated ones when their gate is on. */
export function enabledGroups(capabilities: readonly Capability[], gates: Gates): Capability[] {
  return capabilities.filter((capability) => gateOn(capability, gates));
}

function knownProperty(name: string): string {
  if (!findSpec(PROPERTIES, name)) {
    throw new Error(`The stack sets '${name}', which lib/config/properties.ts does not define`);
  }
  return name;
}
