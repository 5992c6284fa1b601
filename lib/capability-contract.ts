/**
 * The module contract: what a capability contributes, declared in its own folder
 * (lib/<capability>/capability.ts) and listed once in lib/capabilities.ts. The hosts, the engine
 * wiring and the CDK stack fold over that list and name no capability:
 * - its tables (plain data) and its stores, over memory, the embedded store or DynamoDB;
 * - decorators of its own stores (retention...);
 * - what it gives the engine: task-type ports, run-end and run-removed hooks, the schema enforcer;
 * - the services it builds over the host's (`provides`), which its routes, jobs and consumers use;
 * - its periodic jobs, queue consumers and stream consumers (lib/jobs/types.ts), with their queues;
 * - its routes, its API Gateway routes, its grants (and what it asks of every function that starts
 *   or decides runs, or that checks tokens), its AWS deployment and its outside sources;
 * - the access keys it keeps, which the API's authentication accepts besides the configured ones;
 * - a check of the configuration at start.
 * docs/adding-a-capability.md walks through one. The contract depends on narrow ports and plain
 * types only, never on lib/runtime.
 */
import type { GateName } from './config/properties.ts';
import type { ServiceConfig } from './config/service-config.ts';
import type {
  AwsDeployment,
  BundledModule,
  EngineGrants,
  FunctionAssets,
  FunctionGrants,
  OutsideSourcesDeployment,
  TableGrant,
} from './deployment.ts';
import type { RunEndedHook, RunRemovedHook } from './engine/run-end.ts';
import type { SchemaEnforcer } from './engine/schema-enforcer.ts';
import type { ScriptEvaluator } from './engine/script/evaluator.ts';
import type { PullDeps } from './engine/tasks/pull-workflow-messages.ts';
import type { RouteDef } from './http/router.ts';
import type { BatchRecord, SourceRecord } from './jobs/batch.ts';
import type { Consumer, PeriodicJob, StreamConsumer } from './jobs/types.ts';
import type { Logger } from './log/logger.ts';
import type { MetadataService } from './metadata/service.ts';
import type { Clock } from './model/clock.ts';
import type { PayloadStore } from './payloads/ports.ts';
import type { DecisionQueue } from './queue/ports.ts';
import type { WorkQueues } from './queue/work-queues.ts';
import type { SearchIndex } from './search/ports.ts';
import type { ApiAuth, KeyDirectory } from './security/api-auth.ts';
import type { DocumentClient } from './store/dynamodb/index.ts';
import type { TableNames, TableSpec } from './store/dynamodb/tables.ts';
import type { EmbeddedSource } from './store/embedded/index.ts';
import type { Stores } from './store/ports.ts';
import type { Engine } from './workflows/engine-api.ts';
import type { RunWatcher } from './workflows/progress.ts';

/** The capability's own stores, built by whichever store backend the host chose. */
export interface StoreFactories<S extends object> {
  memory(): S;
  /** Over the local server's embedded database (lib/store/embedded): durable tables and keys. */
  embedded(source: EmbeddedSource): S;
  /** `tables` holds the physical names of (at least) the tables this capability declares. */
  dynamodb(doc: DocumentClient, tables: TableNames): S;
}

/**
 * What a store decorator reads: the configuration, the clock, where large payloads go, and where
 * writes to runs are published (the requests waiting on a run).
 */
export interface DecorateContext {
  config: ServiceConfig;
  clock: Clock;
  payloads: PayloadStore;
  watcher: RunWatcher;
}

/** What the engine is built with besides its own stores: read by `engine(context)`. */
export interface EngineContext<S extends object = object> {
  config: ServiceConfig;
  clock: Clock;
  stores: Stores & S;
}

/** A capability's part in the engine. */
export interface EngineContribution {
  /** Ports of the task types the capability backs (PULL_WORKFLOW_MESSAGES reads its message store). */
  taskPorts?: { messages?: Omit<PullDeps, 'executions'> };
  /** Runs after a run ended (completed, failed, terminated, timed out), once it is committed. */
  onRunEnded?: RunEndedHook;
  /** Runs after a run was removed (remove, terminate-remove). */
  onRunRemoved?: RunRemovedHook;
  /** Checks payloads against their schemas; at most one capability gives one. */
  enforcer?: SchemaEnforcer;
}

/**
 * What a capability's routes, providers and background work are built over: the host's services,
 * with the engine's stores plus the capability's own (`S`).
 */
export interface ServiceContext<S extends object = object> {
  config: ServiceConfig;
  logger: Logger;
  clock: Clock;
  stores: Stores & S;
  metadata: MetadataService;
  engine: Engine;
  decisions: DecisionQueue;
  /** The work queues routes and providers send to (schedule fires, system tasks, events). */
  workQueues: WorkQueues;
  scripts: ScriptEvaluator;
  /**
   * Every route of every enabled capability, as the local host serves them (a Lambda's router holds
   * only its own group's): what the OpenAPI document walks. A promise: the system function, made of
   * its own capabilities only, builds it on the document's first request (lib/runtime/route-table.ts).
   */
  routeTable(): Promise<readonly RouteDef[]>;
  /** API authentication (open unless service.security.enabled): the router checks, POST /api/token issues. */
  auth: ApiAuth;
  version: string;
  /** An external search index (OpenSearch) that answers search; absent: search reads the store. */
  searchIndex?: SearchIndex;
  /** Where large payloads are kept (lib/payloads). */
  payloads: PayloadStore;
  /**
   * Every payload key a stored text of any capability names (Capability.payloadReferences, each
   * capability's, gated or not: data outlives a switched-off feature): what the payload sweep keeps.
   */
  payloadReferences(visit: (key: string) => void): Promise<void>;
}

export interface Capability<S extends object = object, P extends object = object> {
  /** Also the Lambda function's name suffix and handler file (functions/<name>.ts). */
  readonly name: string;
  /** Off: the capability has no routes (its paths answer 404 with the error body) and no function. */
  readonly gate?: GateName;
  /** The tables this capability owns (lib/<capability>/tables.ts); their key design is beside their adapter. */
  readonly tables: readonly TableSpec[];
  /** Its stores; they join the host's store bundle (`services.stores`). */
  readonly stores?: StoreFactories<S>;
  /** Wraps its own stores once, for every reader (retention); only the stores it changes. */
  decorate?(stores: S, context: DecorateContext): Partial<S>;
  /** Refuses, at start, a configuration the capability cannot work with (throws a ConfigError). */
  checkConfig?(config: ServiceConfig): void;
  /** Its part in the engine, over the host's stores. */
  engine?(context: EngineContext<S>): EngineContribution;
  /** The services it builds once over the host's: what its routes, jobs and consumers use. */
  provides?(services: ServiceContext<S>): P;
  /** Its HTTP routes over the host's services and what it provides. */
  routes(services: ServiceContext<S>, provided: P): RouteDef[];
  /**
   * The access keys it keeps (applications' keys), which POST /api/token and every token check read
   * besides the configured keys; at most one capability gives them.
   */
  keyDirectory?(stores: Stores & S): KeyDirectory;
  /** Periodic jobs (run locally on intervals, on AWS by EventBridge rules). */
  readonly jobs?: readonly PeriodicJob<P>[];
  /** Consumers of its work queues (run locally in process, on AWS from SQS). */
  // biome-ignore lint/suspicious/noExplicitAny: each consumer's message type is its own (decode makes it).
  readonly consumers?: readonly Consumer<any, P>[];
  /** Consumers of a table's change stream (AWS only). */
  readonly streamConsumers?: readonly StreamConsumer[];
  /** API Gateway route keys that reach this capability's function; every route must fall under one. */
  readonly apiRoutes: readonly string[];
  /** What the capability's function may touch on AWS. */
  readonly grants: FunctionGrants;
  /**
   * The tables every function that uses the engine so needs because of this capability (the
   * schema registry: every function that starts runs or applies results reads schemas).
   */
  readonly engineGrants?: EngineGrants;
  /**
   * The tables every route group function needs because of this capability when the API requires
   * tokens (the applications table: any route may be called with a stored key's token, checked
   * against the key's state on every request).
   */
  readonly authGrants?: readonly TableGrant[];
  /** Bucket access and properties of its function on AWS, when it needs any. */
  readonly aws?: AwsDeployment;
  /** Package files its function reads at run time (Swagger UI's, for the system capability). */
  readonly assets?: FunctionAssets;
  /**
   * Its function evaluates scripts (INLINE, SWITCH, DO_WHILE, JSON_JQ_TRANSFORM) in the request, so
   * the QuickJS and jq workers ship with it (a synchronous execute's first decide, a test run).
   */
  readonly scriptWorker?: boolean;
  /**
   * Its stores may name large payloads (lib/payloads keys) in what they keep (a schedule's start
   * request, a run's records): how to list every key named, and the tables read to list them (the
   * stack grants them, read only, to the payload sweep: FunctionGrants.payloads `sweep`). The
   * payload sweep (lib/payloads/sweep.ts) keeps every payload any capability lists.
   */
  readonly payloadReferences?: {
    readonly tables: readonly TableSpec[];
    /** Hands every key named to `visit`; answers once everything was read. */
    list(stores: S, visit: (key: string) => void): Promise<void>;
  };
  /**
   * Modules its function imports at run time, bundled as files of their own beside its code (the
   * system capability's route table for the API document, lib/runtime/route-table.ts).
   */
  readonly modules?: readonly BundledModule[];
  /** Outside sources a deployment may route into one of its consumers (AWS only). */
  // biome-ignore lint/suspicious/noExplicitAny: the consumer's message type is its own.
  readonly outsideSources?: OutsideSources<any, P>;
}

/**
 * A capability's outside sources: how the stack deploys them, the consumer their messages go to,
 * and how what they deliver becomes that consumer's messages (lib/runtime/aws.ts
 * outsideSourceHandler).
 */
export interface OutsideSources<M, P extends object = object> extends OutsideSourcesDeployment {
  consumer: Consumer<M, P>;
  /** An SQS source's record (its queue's ARN says which) as a record of the consumer's queue. */
  recordOf(record: SourceRecord): BatchRecord;
  /** What an EventBridge rule hands the function, as a message; undefined when it is not that. */
  messageOf(input: unknown): M | undefined;
}

/** The stores one capability contributes (its `S`), `{}` when it has none of its own. */
export type StoresOf<C> = C extends { readonly stores?: StoreFactories<infer S> } ? S : never;

/** `A | B` to `A & B`: every capability's stores together. */
export type Intersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void
  ? I
  : never;
