/**
 * The whole service on AWS in one stack: the data (tables, files bucket), the HTTP API with one
 * function per route group whose gate is on, and the decision pipeline (lib/engine/ARCHITECTURE.md):
 * the FIFO decision queue and its decider, the timer queue and its consumer, and the one-minute
 * wake-up sweeper. Route groups, their tables, grants, background work (JOBS, one function and
 * EventBridge rule each; CONSUMERS, one function, queue and dead-letter queue each) and outside
 * sources come from the capability list (lib/capabilities.ts), and properties from properties.ts,
 * so a new capability, job or consumer is picked up here with no edit; what each function may touch
 * is declared in its descriptor. The management UI is served by CloudFront from S3 on the same
 * origin as the API (infra/constructs/ui.ts).
 */
import { Annotations, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  CAPABILITIES,
  CONSUMERS,
  grantedTables,
  JOBS,
  routeGroupGrants,
  STREAM_CONSUMERS,
} from '../lib/capabilities.ts';
import type { Capability } from '../lib/capability-contract.ts';
import { queueUrlProperty } from '../lib/catalog.ts';
import { envNameOf, findSpec } from '../lib/config/load.ts';
import { GATES, type GateName, gatedOn, PROPERTIES } from '../lib/config/properties.ts';
import type { AwsDeployment, FunctionGrants, OutsideSource } from '../lib/deployment.ts';
import { type Consumer, type PeriodicJob, rateMs, type StreamConsumer } from '../lib/jobs/types.ts';
import { tablePropertyName } from '../lib/store/dynamodb/tables.ts';
import { ServiceAlarms } from './constructs/alarms.ts';
import { ServiceApi } from './constructs/api.ts';
import { ApiKeys } from './constructs/api-keys.ts';
import { type ApiStageLimits, ApiStageSettings, DEFAULT_API_LIMITS } from './constructs/api-stage.ts';
import { ServiceData, type TableCapacity } from './constructs/data.ts';
import { type EventSinkTarget, EventSources, grantEventSinks } from './constructs/event-sources.ts';
import { pascalCase } from './constructs/names.ts';
import { WorkQueues } from './constructs/queues.ts';
import { collectionNameOf, SearchCollection } from './constructs/search-collection.ts';
import { ServiceFunction, type ServiceFunctionProps } from './constructs/service-function.ts';
import { ManagementUi } from './constructs/ui.ts';
import { EdgeFirewall, type WafOptions } from './constructs/waf.ts';
import { acknowledgeNagFindings, type NagSubjects } from './nag-suppressions.ts';

/** On/off per gated feature (docs/api.md "Overview" item 7); keys match GATES in lib/config/properties.ts. */
export type Gates = Record<GateName, boolean>;

export interface ConductorStackProps extends StackProps {
  gates: Gates;
  /** The capabilities to deploy; defaults to CAPABILITIES. Those whose gate is off are left out. */
  capabilities?: readonly Capability[];
  /**
   * Where search answers from (`-c searchBackend=...`): `store` (default) reads DynamoDB alone;
   * `opensearch` adds an OpenSearch Serverless collection fed from the executions table's stream
   * by the search indexer, and the search routes answer from it.
   */
  searchBackend?: SearchBackend;
  /**
   * Outside sources a deployment routes into capabilities, by capability name (each capability
   * names its context key, e.g. `eventSources`: Capability.outsideSources;
   * infra/constructs/event-sources.ts).
   */
  outsideSources?: Readonly<Record<string, readonly OutsideSource[]>>;
  /** Outside sinks EVENT tasks may publish to (context `eventSinks`; infra/constructs/event-sources.ts). */
  eventSinks?: readonly EventSinkTarget[];
  /**
   * `service.*` properties every function gets (infra/app.ts reads them from `-c service.x=y`);
   * each must exist in properties.ts, and a capability may refuse one (AwsDeployment.properties).
   */
  properties?: Readonly<Record<string, string>>;
  /** Alarms, limits and concurrency (README "Operations"); each has a default. */
  operations?: OperationsOptions;
  /**
   * `key` (the default): the API requires a token from POST /api/token with an application key, the
   * first of which the stack creates in Secrets Manager. `none`: the spec's open API (`-c auth=none`),
   * with a warning at synth.
   */
  auth?: ApiAuthMode;
  /** A built management UI to serve as it is (default: ui/dist, built first when stale). */
  uiDir?: string;
  /**
   * Origins of browser applications that may call the API's own URL (`-c corsOrigins=...`); none
   * by default: the management UI reaches the API through CloudFront on its own origin
   * (infra/constructs/api.ts).
   */
  corsOrigins?: readonly string[];
  /**
   * An AWS WAF web ACL in front of the CloudFront distribution (`-c waf=true`; off by default):
   * AWS managed rule groups and a per-IP rate limit (infra/constructs/waf.ts, which says what it
   * does not cover: the API's own execute-api URL).
   */
  waf?: WafOptions;
}

export type ApiAuthMode = 'key' | 'none';

export type SearchBackend = 'store' | 'opensearch';

/** The indexes' name prefix (service.search.opensearch.index-prefix keeps its default). */
const SEARCH_INDEX_PREFIX = 'conductor';

export interface OperationsOptions {
  /** Subscribed to the alarm topic by email (`-c alarmEmail=ops@example.com`). */
  alarmEmail?: string;
  /** API stage throttling (`-c apiRateLimit=… -c apiBurstLimit=…`); DEFAULT_API_LIMITS otherwise. */
  apiLimits?: ApiStageLimits;
  /**
   * Reserve concurrency (true by default): the consumers runs progress through (Consumer.reserved:
   * the decider and the timer consumer) reserve their queue's maxConcurrency, so a burst of API
   * requests can never take the account's concurrency from decides, and each periodic job reserves
   * one execution, so a job never runs twice at once and its retries wait for the running one.
   * Lambda keeps 100 executions of the account unreserved, so this needs an account concurrency
   * limit of at least 100 plus the reserved total (about 160; 1,000 by default, 10 on some new
   * accounts until raised); below it, `-c reserveConcurrency=false` reserves nothing (synth warns).
   */
  reserveConcurrency?: boolean;
  /** Table billing (`-c tableCapacity=provisioned -c tableMaxUnits=…`); on-demand by default. */
  tableCapacity?: TableCapacity;
}

/**
 * Retries of a periodic job that failed (a throttled store, a queue that refused a send): Lambda
 * retries an asynchronous invocation after about 1 and then 2 minutes, and an event older than
 * this goes to the jobs' dead-letter queue instead, as does one that failed every retry.
 */
export const JOB_RETRY_ATTEMPTS = 2;
export const JOB_MAX_EVENT_AGE = Duration.minutes(10);

/** The description of a job's or consumer's function; tests find the function by it. */
export function backgroundDescription(work: { name: string; summary: string }): string {
  return `Conductor ${work.name}: ${work.summary}`;
}

interface FunctionSpec extends Omit<ServiceFunctionProps, 'environment'> {
  grants: FunctionGrants;
  aws?: AwsDeployment;
  /** Service properties beyond those its grants give. */
  properties?: Record<string, string>;
}

export class ConductorStack extends Stack {
  private readonly data: ServiceData;
  private readonly queues: WorkQueues;
  private readonly gates: Gates;
  private readonly search?: SearchCollection;
  private readonly eventSinks: readonly EventSinkTarget[];
  private readonly properties: Readonly<Record<string, string>>;
  private readonly alarms: ServiceAlarms;
  private readonly operations: OperationsOptions;
  private jobDeadLetters?: Queue;
  private readonly functions: ServiceFunction[] = [];
  private readonly deadLetterDestinations: NagSubjects['deadLetterDestinations'][number][] = [];

  constructor(scope: Construct, id: string, props: ConductorStackProps) {
    super(scope, id, props);
    this.gates = props.gates;
    this.eventSinks = props.eventSinks ?? [];
    this.properties = props.properties ?? {};
    this.operations = props.operations ?? {};
    this.alarms = new ServiceAlarms(this, 'Alarms', { email: this.operations.alarmEmail });

    const streamConsumers = STREAM_CONSUMERS.filter((c) =>
      c.deployedWith({ searchBackend: props.searchBackend ?? 'store', properties: this.properties }),
    );
    this.data = new ServiceData(this, 'Data', {
      streamed: streamConsumers.map((c) => c.table),
      capacity: this.operations.tableCapacity,
    });
    for (const [tableId, table] of this.data.tables) this.alarms.table(pascalCase(tableId), table);
    if (!this.reserving()) {
      Annotations.of(this).addWarningV2(
        'conductor:no-reserved-concurrency',
        'reserveConcurrency=false: the decider, the timer consumer and the periodic jobs reserve no concurrency, so a burst of API requests can take the whole account concurrency and delay every decide (throttled decides are retried, not lost). Deploy without it once the account concurrency limit allows (docs/operations.md).',
      );
    }
    if (props.searchBackend === 'opensearch') {
      this.search = new SearchCollection(this, 'Search', {
        name: collectionNameOf(this.stackName),
        indexPrefix: SEARCH_INDEX_PREFIX,
      });
    }
    // The bucket's `payloads/` prefix is granted to the functions that read and write runs
    // (FunctionGrants.payloads); file storage will grant its own prefix next to its functions.
    const api = new ServiceApi(this, 'Api', { corsOrigins: props.corsOrigins });
    const consumers = CONSUMERS.filter((consumer) => gateOn(consumer, props.gates));
    this.queues = new WorkQueues(this, 'Queues', { consumers });
    new ApiStageSettings(this, 'ApiStage', api.httpApi, this.operations.apiLimits ?? DEFAULT_API_LIMITS);
    this.alarms.api(api.httpApi);

    const apiKeys = (props.auth ?? 'key') === 'key' ? new ApiKeys(this, 'ApiKeys') : undefined;
    if (!apiKeys) {
      Annotations.of(this).addWarningV2(
        'conductor:auth-none',
        'auth=none: the API is open to anyone who can reach its URL, and INLINE tasks run their JavaScript. Deploy without -c auth=none to require keys.',
      );
    }

    const groups = enabledGroups(props.capabilities ?? CAPABILITIES, props.gates);
    for (const capability of groups) {
      const fn = this.serviceFunction(`${pascalCase(capability.name)}Function`, {
        entry: `functions/${capability.name}.ts`,
        description: `Conductor route group '${capability.name}'`,
        // With keys, every group reads the tables token checks need (stored keys' state).
        grants: routeGroupGrants(capability, apiKeys !== undefined),
        aws: capability.aws,
        assets: capability.assets,
        scriptWorker: capability.scriptWorker,
        modules: capability.modules,
        // Every route group checks tokens itself (the router), so answers keep the error body.
        properties: apiKeys?.properties(),
      });
      apiKeys?.grantRead(fn);
      api.addRoutes(capability.name, capability.apiRoutes, fn);
    }

    for (const consumer of consumers) this.consumer(consumer);
    for (const job of JOBS.filter((j) => gateOn(j, props.gates))) this.job(job);
    for (const consumer of streamConsumers) this.streamConsumer(consumer);
    if (this.search) {
      new CfnOutput(this, 'SearchCollectionEndpoint', {
        value: this.search.endpoint,
        description: 'OpenSearch Serverless collection search answers from',
      });
    }
    for (const capability of groups) {
      const spec = capability.outsideSources;
      const sources = props.outsideSources?.[capability.name] ?? [];
      if (spec === undefined || sources.length === 0) continue;
      const name = pascalCase(spec.function.name);
      const target = this.serviceFunction(`${name}Function`, {
        entry: `functions/${spec.function.name}.ts`,
        description: spec.function.description,
        timeout: Duration.seconds(spec.function.timeoutSeconds),
        scriptWorker: spec.function.scriptWorker,
        grants: spec.function.grants,
      });
      new EventSources(this, name, { sources, target, nameOf: (source) => spec.nameOf(source) });
    }

    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarms.topic.topicArn,
      description: 'SNS topic of the Conductor alarms: subscribe to it to be told',
    });
    const firewall = props.waf ? new EdgeFirewall(this, 'Waf', props.waf) : undefined;
    const ui = new ManagementUi(this, 'Ui', {
      api: api.httpApi,
      routes: groups.flatMap((capability) => capability.apiRoutes),
      dir: props.uiDir,
      webAclArn: firewall?.webAclArn,
    });

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL of the Conductor API' });
    new CfnOutput(this, 'FilesBucketName', { value: this.data.bucket.bucketName });
    if (apiKeys) {
      new CfnOutput(this, 'ApiKeySecretName', {
        value: apiKeys.secret.secretName,
        description:
          'Secrets Manager secret of the API keys: its id and secret are the SDKs keyId and keySecret',
      });
    }
    for (const [tableId, table] of this.data.tables) {
      new CfnOutput(this, `${pascalCase(tableId)}TableName`, { value: table.tableName });
    }
    // Last, once every resource exists: the cdk-nag findings kept, each with its reason.
    acknowledgeNagFindings(this, {
      functions: this.functions,
      data: this.data,
      api,
      apiKeys,
      ui,
      firewall: firewall !== undefined,
      deadLetterDestinations: this.deadLetterDestinations,
    });
  }

  /** Whether functions reserve concurrency (OperationsOptions.reserveConcurrency; on by default). */
  private reserving(): boolean {
    return this.operations.reserveConcurrency !== false;
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
      // The event source never runs more than maxConcurrency at once: reserving as much takes
      // nothing it would use from the rest of the account, and guarantees it that much.
      reservedConcurrentExecutions: this.reserving() && consumer.reserved ? queue.maxConcurrency : undefined,
      grants: consumer.grants,
    });
    // The event source grants consuming (receive, delete, change visibility) on its queue; partial
    // batch responses (lib/jobs/batch.ts) send back only the messages that failed.
    fn.addEventSource(
      new SqsEventSource(this.queues.queue(queue.name), {
        batchSize: queue.batchSize,
        reportBatchItemFailures: true,
        maxConcurrency: queue.maxConcurrency,
      }),
    );
    const id = pascalCase(queue.name);
    this.alarms.deadLetters(id, this.queues.deadLetterQueue(queue.name), queue.deadLetters.description);
    this.alarms.oldestMessage(
      id,
      this.queues.queue(queue.name),
      queue.oldestMessageAlarmSeconds,
      `The ${consumer.name} consumer (${consumer.summary})`,
    );
    new CfnOutput(this, queue.deadLetters.output, {
      value: this.queues.deadLetterQueue(queue.name).queueUrl,
      description: queue.deadLetters.description,
    });
  }

  /**
   * A stream consumer's function, fed by its table's change stream (the table is created with one:
   * ServiceData's `streamed`). The stream keeps each item's changes in order and one batch per
   * shard runs at a time; a failing batch is retried, halved to isolate a bad record, and past its
   * retries named in a dead-letter queue (the records themselves stay in the stream for 24 h).
   */
  private streamConsumer(consumer: StreamConsumer): void {
    const fn = this.serviceFunction(`${pascalCase(consumer.name)}Function`, {
      entry: `functions/${consumer.name}.ts`,
      description: backgroundDescription(consumer),
      timeout: Duration.seconds(consumer.timeoutSeconds),
      grants: consumer.grants,
    });
    const deadLetters = new Queue(this, `${pascalCase(consumer.name)}DeadLetters`, {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.deadLetterDestinations.push({
      queue: deadLetters,
      holds: `descriptions of the ${consumer.name} stream consumer's batches that failed every retry, from its event source's on-failure destination`,
    });
    // The event source grants reading the stream, and sending failure records to the queue.
    fn.addEventSource(
      new DynamoEventSource(this.data.tableOf(consumer.table), {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: consumer.batchSize,
        bisectBatchOnError: true,
        retryAttempts: consumer.retryAttempts,
        onFailure: new SqsDlq(deadLetters),
        filters: consumer.filters?.map((pattern) => FilterCriteria.filter(pattern)),
      }),
    );
    new CfnOutput(this, consumer.deadLetters.output, {
      value: deadLetters.queueUrl,
      description: consumer.deadLetters.description,
    });
  }

  /** A periodic job's function, run by an EventBridge rule on the job's rate. */
  private job(job: PeriodicJob): void {
    const fn = this.serviceFunction(`${pascalCase(job.name)}Function`, {
      entry: `functions/${job.name}.ts`,
      description: backgroundDescription(job),
      timeout: Duration.seconds(job.timeoutSeconds),
      reservedConcurrentExecutions: this.reserving() ? 1 : undefined,
      grants: job.grants,
    });
    // A failed run is retried (every job is idempotent: a sweep or tick run twice sends what the
    // first one did, or nothing), then parked in the jobs' dead-letter queue, which raises an alarm.
    // With one reserved execution a retry never overlaps the next scheduled run: it waits for it.
    const deadLetters = this.jobDeadLetterQueue();
    fn.configureAsyncInvoke({
      retryAttempts: JOB_RETRY_ATTEMPTS,
      maxEventAge: JOB_MAX_EVENT_AGE,
      onFailure: new SqsDestination(deadLetters),
    });
    new Rule(this, `${pascalCase(job.name)}Schedule`, {
      description: `Runs the Conductor ${job.name} every ${job.every}`,
      schedule: Schedule.rate(Duration.minutes(rateMs(job.every) / 60_000)),
      // Events EventBridge could not deliver (the function throttled past its retries) land there too.
      targets: [
        new LambdaFunction(fn, {
          deadLetterQueue: deadLetters,
          retryAttempts: JOB_RETRY_ATTEMPTS,
          maxEventAge: JOB_MAX_EVENT_AGE,
        }),
      ],
    });
  }

  /** One dead-letter queue for every periodic job's failed runs, with its alarm. */
  private jobDeadLetterQueue(): Queue {
    if (this.jobDeadLetters) return this.jobDeadLetters;
    const queue = new Queue(this, 'JobsDlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.alarms.deadLetters('Jobs', queue, 'Periodic jobs (sweeper, schedule tick) that failed every retry');
    this.deadLetterDestinations.push({
      queue,
      holds:
        "the periodic jobs' runs that failed every retry (each job function's on-failure destination) and the schedule events EventBridge could not deliver (each rule target's dead-letter queue)",
    });
    new CfnOutput(this, 'JobDeadLetterQueueUrl', {
      value: queue.queueUrl,
      description: 'Periodic job runs (sweeper, schedule tick) that failed every retry',
    });
    this.jobDeadLetters = queue;
    return queue;
  }

  /** A function with exactly the tables and queues it is granted, and told the names of those only. */
  private serviceFunction(id: string, spec: FunctionSpec): ServiceFunction {
    const { grants, aws, properties, ...props } = spec;
    const fn = new ServiceFunction(this, id, {
      ...props,
      environment: this.serviceEnvironment(grants, aws, properties),
    });
    if (aws?.objects) this.data.grantObjects(fn, aws.objects.prefix, aws.objects.actions);
    for (const { table, access } of grantedTables(grants)) this.data.grantTable(fn, table, access);
    for (const queue of grants.sends) this.queues.grantSend(fn, queue);
    if (grants.payloads) this.data.grantPayloads(fn, grants.payloads);
    if (grants.search && this.search) this.search.grant(fn, grants.search);
    // Functions that run EVENT tasks (they decide runs, and send conductor: messages to the events
    // queue) may publish to the listed sinks; the events API only hands incoming events to the queue.
    if (grants.sends.includes('events') && grants.engine === 'decides')
      grantEventSinks(this, fn, this.eventSinks);
    this.alarms.function(id, fn);
    this.functions.push(fn);
    return fn;
  }

  /**
   * The `service.*` properties a function gets, as the environment variables lib/config/load.ts
   * reads: the same for every function but for the table names it may use, the queue URLs of
   * functions that send to a work queue and the payload bucket of functions granted it. Those are told every
   * queue's URL: the decision queue is one adapter over two queues (lib/runtime/aws.ts builds it from both
   * URLs), and the role, not the environment, limits where a function may send. Only properties that exist in
   * properties.ts: a typo, or a table the service cannot be told the name of, fails the synth.
   */
  private serviceEnvironment(
    grants: FunctionGrants,
    aws?: AwsDeployment,
    extra: Record<string, string> = {},
  ): Record<string, string> {
    const properties: Record<string, string> = {
      ...this.properties,
      ...extra,
      ...aws?.properties({
        bucket: this.data.bucket.bucketName,
        region: this.region,
        properties: this.properties,
      }),
      'service.store': 'dynamodb',
      'service.log.format': 'json',
      'service.dynamodb.region': this.region,
    };
    // Table names are generated by CloudFormation (so two stacks can share an account), hence
    // passed one by one rather than through service.dynamodb.table-prefix.
    const { sends, payloads, search } = grants;
    for (const { table } of grantedTables(grants)) {
      properties[tablePropertyName(table)] = this.data.tableOf(table).tableName;
    }
    if (sends.length > 0) {
      for (const queue of this.queues.names) {
        properties[queueUrlProperty(queue)] = this.queues.queue(queue).queueUrl;
      }
    }
    if (payloads) properties['service.aws.payload-bucket'] = this.data.bucket.bucketName;
    if (search && this.search) {
      properties['service.search.backend'] = 'opensearch';
      properties['service.search.opensearch.endpoint'] = this.search.endpoint;
      properties['service.search.opensearch.region'] = this.region;
      properties['service.search.opensearch.service'] = 'aoss';
      properties['service.search.opensearch.index-prefix'] = SEARCH_INDEX_PREFIX;
    }
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
  return gatedOn(work, (gate) => gates[gate]);
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
