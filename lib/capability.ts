/**
 * What a capability is: everything the two hosts and the CDK stack need to know about one route
 * group and its data, declared in the capability's own folder (lib/<capability>/capability.ts) and
 * listed once in lib/capabilities.ts. The local host and the Lambda host build routes and stores
 * from it; the stack builds the function, its API Gateway routes, the tables and the grants from
 * it. A new route group with its own table is one new folder and one line in that list.
 */
import type { GateName } from './config/properties.ts';
import type { ServiceConfig } from './config/service-config.ts';
import type { ScriptEvaluator } from './engine/script/evaluator.ts';
import type { RouteDef } from './http/router.ts';
import type { Logger } from './log/logger.ts';
import type { MetadataService } from './metadata/service.ts';
import type { Clock } from './model/clock.ts';
import type { DecisionQueue } from './queue/ports.ts';
import type { WorkQueueName, WorkQueues } from './queue/work-queues.ts';
import type { Engine } from './runtime/engine.ts';
import type { SearchIndex } from './search/ports.ts';
import type { ApiAuth } from './security/api-auth.ts';
import type { DocumentClient } from './store/dynamodb/index.ts';
import type { TableNames, TableSpec } from './store/dynamodb/tables.ts';
import type { EmbeddedSource } from './store/embedded/index.ts';
import type { Stores } from './store/ports.ts';

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
export interface FunctionGrants {
  tables: readonly TableGrant[];
  sends: readonly WorkQueueName[];
  /**
   * The large-payload store (the files bucket's `payloads/` prefix, lib/payloads): every function
   * that reads or writes runs needs it, since a run's inputs and outputs may live there. The
   * function is also told the bucket's name (`service.aws.payload-bucket`).
   */
  payloads?: TableAccess;
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

/** The capability's own stores, built by whichever store backend the host chose. */
export interface StoreFactories<S extends object> {
  memory(): S;
  /** Over the local server's embedded database (lib/store/embedded): durable tables and keys. */
  embedded(source: EmbeddedSource): S;
  /** `tables` holds the physical names of (at least) the tables this capability declares. */
  dynamodb(doc: DocumentClient, tables: TableNames): S;
}

/**
 * What a capability's routes are built over: the host's services, with the engine's stores plus the
 * capability's own (`S`). The host's Services (lib/runtime/services.ts) is this with every
 * capability's stores.
 */
export interface ServiceContext<S extends object = object> {
  config: ServiceConfig;
  logger: Logger;
  clock: Clock;
  stores: Stores & S;
  metadata: MetadataService;
  engine: Engine;
  decisions: DecisionQueue;
  /** The work queues routes send to (schedule fires). */
  workQueues: WorkQueues;
  scripts: ScriptEvaluator;
  /**
   * Every route of every enabled capability, as the local host serves them (a Lambda's router holds
   * only its own group's): what the OpenAPI document walks.
   */
  routeTable(): readonly RouteDef[];
  /** API authentication (open unless service.security.enabled): the router checks, POST /api/token issues. */
  auth: ApiAuth;
  version: string;
  /** An external search index (OpenSearch) that answers search; absent: search reads the store. */
  searchIndex?: SearchIndex;
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

export interface Capability<S extends object = object> {
  /** Also the Lambda function's name suffix and handler file (functions/<name>.ts). */
  readonly name: string;
  /** Off: the capability has no routes (its paths answer 404 with the error body) and no function. */
  readonly gate?: GateName;
  /** The tables this capability owns; their key design is documented beside their adapter. */
  readonly tables: readonly TableSpec[];
  /** Its stores; they join the host's store bundle (`services.stores`). */
  readonly stores?: StoreFactories<S>;
  /** Its HTTP routes over the host's services. */
  routes(services: ServiceContext<S>): RouteDef[];
  /** API Gateway route keys that reach this capability's function; every route must fall under one. */
  readonly apiRoutes: readonly string[];
  /** What the capability's function may touch on AWS. */
  readonly grants: FunctionGrants;
  /** Bucket access and properties of its function on AWS, when it needs any. */
  readonly aws?: AwsDeployment;
  /** Package files its function reads at run time (Swagger UI's, for the system capability). */
  readonly assets?: FunctionAssets;
}

/** The stores one capability contributes (its `S`), `{}` when it has none of its own. */
export type StoresOf<C> = C extends { readonly stores?: StoreFactories<infer S> } ? S : never;

/** `A | B` to `A & B`: every capability's stores together. */
export type Intersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void
  ? I
  : never;
