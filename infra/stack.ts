/**
 * The whole service on AWS in one stack: the data (tables, files bucket), the HTTP API with one
 * function per route group whose gate is on, and the decision pipeline (ARCHITECTURE.md "The
 * engine", "Durable timers"): the FIFO decision queue and its decider, the timer queue and its
 * consumer, and the one-minute wake-up sweeper. Functions, routes, tables and grants of the route
 * groups come from the capability list (lib/capabilities.ts) and properties from properties.ts, so
 * a new capability is picked up here with no edit; what each function may touch is declared in its
 * capability (or, for the decision pipeline, below next to where it is created).
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
import {
  DEFINITIONS_TABLE,
  EXECUTIONS_TABLE,
  QUEUES_TABLE,
  tablePropertyName,
} from '../lib/store/dynamodb/tables.ts';
import { ServiceApi } from './constructs/api.ts';
import { ServiceData } from './constructs/data.ts';
import { pascalCase } from './constructs/names.ts';
import { DecisionQueues } from './constructs/queues.ts';
import { ServiceFunction, type ServiceFunctionProps } from './constructs/service-function.ts';

/** On/off per gated feature (SPEC.md item 7); keys match GATES in lib/config/properties.ts. */
export type Gates = Record<GateName, boolean>;

export interface ConductorStackProps extends StackProps {
  gates: Gates;
  /** The capabilities to deploy; defaults to CAPABILITIES. Those whose gate is off are left out. */
  capabilities?: readonly Capability[];
}

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
  grants: FunctionGrants;
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

    for (const capability of enabledGroups(props.capabilities ?? CAPABILITIES, props.gates)) {
      const fn = this.serviceFunction(`${pascalCase(capability.name)}Function`, {
        entry: `functions/${capability.name}.ts`,
        description: `Conductor route group '${capability.name}'`,
        grants: capability.grants,
      });
      api.addRoutes(capability.name, capability.apiRoutes, fn);
    }

    // Decides runs, so it writes runs and worker queues, reads definitions (sub-workflow and failure
    // workflow starts), evaluates scripts, and requests further decides and wake-ups.
    const decider = this.serviceFunction('DeciderFunction', {
      entry: 'functions/decider.ts',
      description: 'Conductor decider: consumes the decision queue',
      timeout: DECIDER_TIMEOUT,
      memorySize: 1024,
      scriptWorker: true,
      grants: {
        tables: [
          { table: DEFINITIONS_TABLE, access: 'read' },
          { table: EXECUTIONS_TABLE, access: 'readWrite' },
          { table: QUEUES_TABLE, access: 'readWrite' },
        ],
        decisions: 'nowAndLater',
      },
    });
    // The event source grants consuming (receive, delete, change visibility) on its queue.
    decider.addEventSource(
      new SqsEventSource(this.queues.decisions, { batchSize: BATCH_SIZE, reportBatchItemFailures: true }),
    );

    const timer = this.serviceFunction('TimerFunction', {
      entry: 'functions/timer.ts',
      description: 'Conductor timer consumer: forwards due wake-ups to the decision queue',
      timeout: TIMER_TIMEOUT,
      grants: { tables: [], decisions: 'now' },
    });
    timer.addEventSource(
      new SqsEventSource(this.queues.timers, { batchSize: BATCH_SIZE, reportBatchItemFailures: true }),
    );

    // Finds due runs through the executions table's wake-up index; writes nothing.
    const sweeper = this.serviceFunction('SweeperFunction', {
      entry: 'functions/sweeper.ts',
      description: 'Conductor sweeper: requests decides of runs whose wake-up has come',
      timeout: SWEEPER_TIMEOUT,
      grants: { tables: [{ table: EXECUTIONS_TABLE, access: 'read' }], decisions: 'now' },
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
    for (const [tableId, table] of this.data.tables) {
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
    const { grants, ...props } = spec;
    const fn = new ServiceFunction(this, id, { ...props, environment: this.serviceEnvironment(grants) });
    for (const { table, access } of grants.tables) this.data.grantTable(fn, table, access);
    if (grants.decisions === 'nowAndLater') this.queues.grantRequest(fn);
    if (grants.decisions === 'now') this.queues.grantRequestNow(fn);
    return fn;
  }

  /**
   * The `service.*` properties a function gets, as the environment variables lib/config/load.ts
   * reads: the same for every function but for the table names it may use and the queue URLs of
   * functions that request decides. Only properties that exist in properties.ts: a typo, or a
   * table the service cannot be told the name of, fails the synth.
   */
  private serviceEnvironment({ tables, decisions }: FunctionGrants): Record<string, string> {
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

/** The capabilities that exist with these gates: ungated ones always, gated ones when their gate is on. */
export function enabledGroups(capabilities: readonly Capability[], gates: Gates): Capability[] {
  return capabilities.filter((capability) => capability.gate === undefined || gates[capability.gate]);
}

function knownProperty(name: string): string {
  if (!findSpec(PROPERTIES, name)) {
    throw new Error(`The stack sets '${name}', which lib/config/properties.ts does not define`);
  }
  return name;
}
