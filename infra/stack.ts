/**
 * The whole service on AWS in one stack: the data (tables, files bucket), the HTTP API with one
 * function per route group whose gate is on, and the decision pipeline (ARCHITECTURE.md "The
 * engine", "Durable timers"): the FIFO decision queue and its decider, the timer queue and its
 * consumer, and the one-minute wake-up sweeper. Routes, tables and properties all come from lib/
 * tables (route-table.ts, tables.ts, properties.ts), so adding a route group or a table there is
 * picked up here; what each function may touch is decided below, next to where it is created.
 */
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { envNameOf } from '../lib/config/load.ts';
import { GATES, type GateName, PROPERTIES } from '../lib/config/properties.ts';
import { ROUTE_GROUPS, type RouteGroupName, type RouteGroupSpec } from '../lib/http/route-table.ts';
import { ServiceApi } from './constructs/api.ts';
import { ServiceData, type TableAccess, type TableId } from './constructs/data.ts';
import { pascalCase } from './constructs/names.ts';
import { DecisionQueues } from './constructs/queues.ts';
import { ServiceFunction, type ServiceFunctionProps } from './constructs/service-function.ts';

/** On/off per gated feature (SPEC.md item 7); keys match GATES in lib/config/properties.ts. */
export type Gates = Record<GateName, boolean>;

export interface ConductorStackProps extends StackProps {
  gates: Gates;
  /** The route groups to deploy; defaults to ROUTE_GROUPS. Groups whose gate is off are left out. */
  routeGroups?: readonly RouteGroupSpec[];
}

/** Tables one function may touch, and how. */
type TableGrants = Partial<Record<TableId, TableAccess>>;

/**
 * Which decides a function may request: none; `now` only (the FIFO decision queue); or also
 * `later` (the timer queue, for delays and wake-ups). A function that requests is told both queue
 * URLs (lib/runtime/aws.ts builds one SqsDecisionQueue) but may send only where it is granted.
 */
type DecisionAccess = 'none' | 'now' | 'nowAndLater';

/**
 * Least privilege per route group: the tables it may touch and how. A Record over every group
 * name, so a new group in route-table.ts does not compile until someone decides what it may touch.
 * A function is told the names of its tables only. The system group only reads, for its health check.
 */
export const GROUP_TABLE_ACCESS: Record<RouteGroupName, TableGrants> = {
  system: { definitions: 'read' },
  metadata: { definitions: 'readWrite' },
  workflows: { definitions: 'read', executions: 'readWrite', queues: 'readWrite' },
  tasks: { executions: 'readWrite', queues: 'readWrite' },
};

/**
 * The decides each route group may request. Starting a run, the decide endpoint and task updates
 * request decides now; both groups may also arm wake-ups (the timer queue) because workflow
 * operations that decide inside the request (sync execute, ARCHITECTURE.md) go through the same
 * executor, which arms the run's next wake-up after each commit. A send the role does not allow
 * would fail only on AWS, never locally.
 */
export const GROUP_DECISION_ACCESS: Record<RouteGroupName, DecisionAccess> = {
  system: 'none',
  metadata: 'none',
  workflows: 'nowAndLater',
  tasks: 'nowAndLater',
};

/**
 * The decider's budget for one batch of up to 10 runs, decided concurrently; scripts alone may take
 * 4 s each (evaluator.ts). The decision queue's visibility timeout is derived from it.
 */
const DECIDER_TIMEOUT = Duration.seconds(60);
/** The timer consumer only forwards messages. */
const TIMER_TIMEOUT = Duration.seconds(30);
/** One sweep sends up to SWEEP_LIMIT messages; it must end before the next tick starts. */
const SWEEPER_TIMEOUT = Duration.seconds(55);

/** SQS event sources hand Lambda at most 10 messages per batch from a FIFO queue. */
const BATCH_SIZE = 10;

interface FunctionSpec extends Omit<ServiceFunctionProps, 'environment'> {
  tables: TableGrants;
  decisions: DecisionAccess;
}

export class ConductorStack extends Stack {
  private readonly data: ServiceData;
  private readonly queues: DecisionQueues;
  private readonly gates: Gates;

  constructor(scope: Construct, id: string, props: ConductorStackProps) {
    super(scope, id, props);
    this.gates = props.gates;

    this.data = new ServiceData(this, 'Data');
    // The bucket is neither passed to nor granted to any function yet: no `service.*` property
    // names it until the S3 file-storage backend exists. Grant it next to that backend's functions.
    const api = new ServiceApi(this, 'Api');
    this.queues = new DecisionQueues(this, 'Queues', {
      deciderTimeout: DECIDER_TIMEOUT,
      timerTimeout: TIMER_TIMEOUT,
    });

    for (const group of enabledGroups(props.routeGroups ?? ROUTE_GROUPS, props.gates)) {
      const fn = this.serviceFunction(`${pascalCase(group.name)}Function`, {
        entry: `functions/${group.name}.ts`,
        description: `Conductor route group '${group.name}'`,
        tables: GROUP_TABLE_ACCESS[group.name],
        decisions: GROUP_DECISION_ACCESS[group.name],
      });
      api.addRoutes(group.name, group.apiRoutes, fn);
    }

    // Decides runs, so it writes runs and worker queues, reads definitions (sub-workflow and failure
    // workflow starts), evaluates scripts, and requests further decides and wake-ups.
    const decider = this.serviceFunction('DeciderFunction', {
      entry: 'functions/decider.ts',
      description: 'Conductor decider: consumes the decision queue',
      timeout: DECIDER_TIMEOUT,
      memorySize: 1024,
      scriptWorker: true,
      tables: { definitions: 'read', executions: 'readWrite', queues: 'readWrite' },
      decisions: 'nowAndLater',
    });
    // The event source grants consuming (receive, delete, change visibility) on its queue.
    decider.addEventSource(
      new SqsEventSource(this.queues.decisions, { batchSize: BATCH_SIZE, reportBatchItemFailures: true }),
    );

    const timer = this.serviceFunction('TimerFunction', {
      entry: 'functions/timer.ts',
      description: 'Conductor timer consumer: forwards due wake-ups to the decision queue',
      timeout: TIMER_TIMEOUT,
      tables: {},
      decisions: 'now',
    });
    timer.addEventSource(
      new SqsEventSource(this.queues.timers, { batchSize: BATCH_SIZE, reportBatchItemFailures: true }),
    );

    // Finds due runs through the executions table's wake-up index; writes nothing.
    const sweeper = this.serviceFunction('SweeperFunction', {
      entry: 'functions/sweeper.ts',
      description: 'Conductor sweeper: requests decides of runs whose wake-up has come',
      timeout: SWEEPER_TIMEOUT,
      tables: { executions: 'read' },
      decisions: 'now',
    });
    // The next tick is the retry: Lambda's own async retries would only overlap it.
    sweeper.configureAsyncInvoke({ retryAttempts: 0 });
    new Rule(this, 'SweepSchedule', {
      description: 'Runs the Conductor wake-up sweeper every minute',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(sweeper)],
    });

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL of the Conductor API' });
    new CfnOutput(this, 'FilesBucketName', { value: this.data.bucket.bucketName });
    for (const [tableId, table] of Object.entries(this.data.tables)) {
      new CfnOutput(this, `${pascalCase(tableId)}TableName`, { value: table.tableName });
    }
    new CfnOutput(this, 'DecisionDeadLetterQueueUrl', {
      value: this.queues.decisionsDlq.queueUrl,
      description: 'Decide requests that failed repeatedly',
    });
    new CfnOutput(this, 'TimerDeadLetterQueueUrl', {
      value: this.queues.timersDlq.queueUrl,
      description: 'Wake-ups that could not be forwarded',
    });
  }

  /** A function with exactly the tables and queues it is granted, and told the names of those only. */
  private serviceFunction(id: string, spec: FunctionSpec): ServiceFunction {
    const { tables, decisions, ...props } = spec;
    const grants = Object.entries(tables) as [TableId, TableAccess][];
    const fn = new ServiceFunction(this, id, {
      ...props,
      environment: this.serviceEnvironment(
        grants.map(([table]) => table),
        decisions,
      ),
    });
    for (const [table, access] of grants) this.data.grantTable(fn, table, access);
    if (decisions === 'nowAndLater') this.queues.grantRequest(fn);
    if (decisions === 'now') this.queues.grantRequestNow(fn);
    return fn;
  }

  /**
   * The `service.*` properties a function gets, as the environment variables lib/config/load.ts
   * reads: the same for every function but for the table names it may use and the queue URLs of
   * functions that request decides. Only properties that exist in properties.ts: a typo, or a
   * table the service cannot be told the name of, fails the synth.
   */
  private serviceEnvironment(tables: TableId[], decisions: DecisionAccess): Record<string, string> {
    const properties: Record<string, string> = {
      'service.store': 'dynamodb',
      'service.log.format': 'json',
      'service.dynamodb.region': this.region,
    };
    // Table names are generated by CloudFormation (so two stacks can share an account), hence
    // passed one by one rather than through service.dynamodb.table-prefix.
    for (const table of tables) {
      properties[`service.dynamodb.tables.${table}`] = this.data.tables[table].tableName;
    }
    if (decisions !== 'none') {
      properties['service.aws.decision-queue-url'] = this.queues.decisions.queueUrl;
      properties['service.aws.timer-queue-url'] = this.queues.timers.queueUrl;
    }
    for (const gate of Object.keys(GATES) as GateName[]) {
      properties[GATES[gate]] = String(this.gates[gate]);
    }
    return Object.fromEntries(
      Object.entries(properties).map(([name, value]) => [envNameOf(knownProperty(name)), value]),
    );
  }
}

/** The groups that exist with these gates: ungated groups always, gated ones when their gate is on. */
export function enabledGroups(groups: readonly RouteGroupSpec[], gates: Gates): RouteGroupSpec[] {
  return groups.filter((group) => group.gate === undefined || gates[group.gate]);
}

function knownProperty(name: string): string {
  if (!PROPERTIES.some((spec) => spec.name === name)) {
    throw new Error(`The stack sets '${name}', which lib/config/properties.ts does not define`);
  }
  return name;
}
