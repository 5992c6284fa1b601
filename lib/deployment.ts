/**
 * What a function may touch on AWS and what the stack tells it, as plain data: the grants of a
 * capability's route group, job or consumer, the package files it reads at run time, and its bucket
 * prefix and properties. The CDK stack reads these; nothing here loads the AWS SDK.
 */
import type { WorkQueueName } from './queue/work-queues.ts';
import type { TableSpec } from './store/dynamodb/tables.ts';

/** What a function may do with a table. */
export type TableAccess = 'read' | 'readWrite';

export interface TableGrant {
  table: TableSpec;
  access: TableAccess;
}

/**
 * Least privilege of one function (route group, job or consumer): the tables it may touch (and is
 * told the names of) and the work queues it may send to. Requesting a decide now sends to
 * `decisions`; arming a later one (delays, wake-ups) to `timers`. A send the role does not allow
 * would fail only on AWS, never locally, so the grant is declared next to the code that sends.
 */
/** How a function uses the engine; `decides` includes `starts`. */
export type EngineUse = 'starts' | 'decides';

/** The tables a capability asks of every function that uses the engine so (Capability.engineGrants). */
export type EngineGrants = Partial<Record<EngineUse, readonly TableGrant[]>>;

export interface FunctionGrants {
  tables: readonly TableGrant[];
  sends: readonly WorkQueueName[];
  /**
   * What the function does with the engine beyond its own tables: `starts` (starts runs or applies
   * worker results, so payloads cross their schemas), `decides` (also decides runs: task types
   * read their capabilities' stores, and what follows a run's end writes them). The stack adds
   * what each capability asks of such functions (Capability.engineGrants; lib/capabilities.ts
   * grantedTables).
   */
  engine?: EngineUse;
  /**
   * The large-payload store (the files bucket's `payloads/` prefix, lib/payloads): every function
   * that reads or writes runs needs it, since a run's inputs and outputs may live there. The
   * function is also told the bucket's name (`service.aws.payload-bucket`). `sweep` is the payload
   * sweep's: list the prefix, read and tag its objects (never write or delete them), and read
   * every table a capability lists payload references from (Capability.payloadReferences).
   */
  payloads?: TableAccess | 'sweep';
  /**
   * The search index (OpenSearch, when the stack's search backend is `opensearch`): `read` for
   * functions that answer search, `readWrite` for the indexer. Such functions are also told its
   * endpoint (`service.search.*`). Without that backend the grant is moot.
   */
  search?: TableAccess;
}

/**
 * Files of an npm package a capability reads at run time (not code esbuild would bundle): the CDK
 * bundling copies them into `into/` beside the function's code.
 */
export interface FunctionAssets {
  package: string;
  files: readonly string[];
  into: string;
}

/**
 * A module bundled as a file of its own beside the function's code (`entry`, relative to the
 * repository root, into `file`), which the function imports at run time, not at its cold start:
 * what only a rare request needs stays out of the bundle every cold start loads.
 */
export interface BundledModule {
  entry: string;
  file: string;
}

/** What the stack tells a capability's function about where it is deployed. */
export interface DeployContext {
  /** The service bucket (files and large payloads). */
  bucket: string;
  region: string;
  /** The `service.*` properties the deployer set for every function (`cdk synth -c service.x=y`). */
  properties: Readonly<Record<string, string>>;
}

/**
 * What a capability needs on AWS beyond tables and queues, declared next to it so the stack needs
 * no edit: a prefix of the service bucket its function may use, and the properties its function
 * gets. `properties` throws to refuse, at synth time, a configuration that cannot work on AWS.
 */
export interface AwsDeployment {
  readonly objects?: { prefix: string; actions: readonly string[] };
  properties(context: DeployContext): Record<string, string>;
}

/**
 * An outside source a deployment routes into a capability on AWS: an existing SQS queue feeding its
 * function (partial batch failures), or an EventBridge rule on a bus matching a detail type and
 * targeting the function with `{source: 'eventbridge', event: <the source's name>, id, detail}`.
 */
export type OutsideSource =
  | { type: 'sqs'; queue: string }
  | { type: 'eventbridge'; bus: string; detailType: string };

/** What the stack needs to deploy a capability's outside sources. */
export interface OutsideSourcesDeployment {
  /** The stack context key that lists them (`-c eventSources=sqs:orders,eventbridge:bus:Type`). */
  context: string;
  /** One entry of the list, or why it is not one (the synth stops, naming it). */
  parse(value: string): OutsideSource | string;
  /** The name the function is told a message came from (the EventBridge rule's input names it). */
  nameOf(source: OutsideSource): string;
  /** The function they feed (`functions/<name>.ts`). */
  function: {
    name: string;
    description: string;
    timeoutSeconds: number;
    scriptWorker?: boolean;
    grants: FunctionGrants;
  };
}
