/**
 * Composition root on AWS Lambda: configuration from the function's environment (set by the CDK
 * stack), DynamoDB tables and SQS queues created by the stack. Each function's entry (functions/)
 * names what it is made of (FunctionParts): its capabilities, the engine where it starts, decides
 * or changes runs, and the AWS adapters its services use (lib/runtime/aws-adapters/: DynamoDB,
 * SQS, S3, EVENT tasks' sinks, OpenSearch), so its bundle holds those and no other. Its services
 * are built on its first invocation and reused. The route groups' handler is in aws-http.ts (it
 * adds the API keys), the stream consumers' in aws-streams.ts.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { AnyCapability } from '../capabilities.ts';
import { queueUrlProperty } from '../catalog.ts';
import { loadConfig } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import type { ScriptEvaluator } from '../engine/script/evaluator.ts';
import { type BatchResponse, runConsumer, type SourceRecord } from '../jobs/batch.ts';
import type { Consumer, JobDeps, PeriodicJob } from '../jobs/types.ts';
import { beginInvocation, invocationContext } from '../log/invocation.ts';
import { createLogger, LOG_LEVELS, type Logger } from '../log/logger.ts';
import { embeddedMetrics } from '../log/metrics.ts';
import { systemClock } from '../model/clock.ts';
import { LocalNotifier } from '../model/notifier.ts';
import type { PayloadStore } from '../payloads/ports.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import { LocalRunWatcher } from '../workflows/progress.ts';
import { composeServices, type ServiceDeps, type ServiceParts, type Services } from './compose.ts';
import { jobDepsOf } from './job-deps.ts';
import { memoryStoresOf } from './store-bundle.ts';

/** How often a waiting request re-reads its run on AWS: at most 4 reads a second per request. */
const AWS_REREAD_MS = 250;

/**
 * The function's configuration, from its environment (set by the stack), and its logger; `env`
 * and `write` stand in for the process's in tests.
 */
export function awsConfig(
  options: { env?: Record<string, string | undefined>; write?: (line: string) => void } = {},
): { config: ServiceConfig; logger: Logger } {
  const config: ServiceConfig = loadConfig({ cwd: '/var/task', env: options.env });
  const logger = createLogger({
    level: config.oneOf('service.log.level', LOG_LEVELS),
    format: 'json',
    write: options.write,
    // Every line names the invocation's request id (set by the handlers below).
    context: invocationContext,
  });
  // The stack sets only properties that exist; anything else named SERVICE_* was added by hand
  // (or misspelt): one warning line each, on every cold start (service.config.strict refuses it).
  for (const warning of config.warnings) logger.warn(warning);
  return { config, logger };
}

/**
 * One AWS adapter of a function's services (lib/runtime/aws-adapters/, one module each, so a
 * function's bundle holds only the SDK clients of those its entry names): what it adds to them
 * (DynamoDB stores, SQS queues, the payload store on S3, EVENT tasks' outside sinks, OpenSearch,
 * the API keys).
 */
export type AwsAdapter = (context: AdapterContext) => Partial<ServiceDeps>;

export interface AdapterContext {
  config: ServiceConfig;
  /** The function's capabilities (their stores are made over DynamoDB). */
  capabilities: readonly AnyCapability[];
}

/**
 * What a Lambda function is made of: its capabilities and, where it starts, decides or changes
 * runs, the engine (ServiceParts), and the AWS adapters its services use. Its entry in functions/
 * names them, so its bundle holds those and no other.
 */
export interface FunctionParts extends ServiceParts {
  adapters: readonly AwsAdapter[];
}

/** The services of a function made of `parts`, built once, on its first invocation. */
export function awsServices(parts: FunctionParts): () => Promise<Services> {
  let services: Promise<Services> | undefined;
  return () => {
    services ??= (async () => buildServices(parts))();
    return services;
  };
}

function buildServices(parts: FunctionParts): Services {
  const { config, logger } = awsConfig();
  const base: ServiceDeps = {
    config,
    logger,
    metrics: embeddedMetrics(),
    clock: systemClock,
    // A function whose capabilities keep nothing (the timer) has no store and no DynamoDB client.
    stores: memoryStoresOf([]),
    // A function that sends to no queue has no SQS client: a send is a wiring bug (the sqs adapter).
    decisions: unwiredDecisionQueue(),
    workQueues: {},
    payloads: unwiredPayloads,
    scripts: scriptsOnFirstUse(),
    // Other Lambdas (the decider consumer, workers' updates) change runs this one waits on, and
    // their commits are not published here: a waiting request also re-reads every 250 ms.
    watcher: new LocalRunWatcher({ rereadMs: AWS_REREAD_MS }),
    // Pushes to worker queues are made by the decider consumer: a waiting poll re-reads its queue,
    // 100 ms after it began and then at doubling intervals up to 1 s (bounded reads per idle poll).
    queueWatcher: new LocalNotifier({
      initialMs: config.number('service.tasks.poll.reread-initial'),
      maxMs: config.number('service.tasks.poll.reread-max'),
    }),
  };
  const context = { config, capabilities: parts.capabilities };
  const noStores = base.stores;
  const deps: ServiceDeps = Object.assign(base, ...parts.adapters.map((adapter) => adapter(context)));
  if (deps.stores === noStores && parts.capabilities.some((capability) => capability.stores)) {
    throw new Error('This function has capabilities with stores, and no store adapter (dynamodb)');
  }
  return composeServices(parts, deps);
}

/**
 * The QuickJS evaluator, loaded (with node:worker_threads) on the first script, whose worker thread
 * it then starts: only the functions that decide runs or carry out event handlers run scripts.
 */
function scriptsOnFirstUse(): ScriptEvaluator {
  let scripts: Promise<ScriptEvaluator> | undefined;
  const load = () => {
    scripts ??= import('../engine/script/evaluator.ts').then((module) => module.createQuickJsEvaluator());
    return scripts;
  };
  return {
    evaluate: async (expression, bindings, limits) => (await load()).evaluate(expression, bindings, limits),
    close: async () => {
      if (scripts) await (await scripts).close();
    },
  };
}

/**
 * The decision queue of a function the stack gave no queue URLs to (and the right to send only to
 * functions that send to a work queue, infra/stack.ts): a request is a wiring bug, reported as such
 * rather than as an SQS error. Functions given them have the SQS adapter (aws-adapters/sqs.ts).
 */
export function unwiredDecisionQueue(): DecisionQueue {
  const properties = { decisions: queueUrlProperty('decisions'), timers: queueUrlProperty('timers') };
  const unwired = (): Promise<void> =>
    Promise.reject(new Error(`This function was not given ${properties.decisions} and ${properties.timers}`));
  return { request: unwired, requestForTasks: unwired, wakeAt: unwired, settled: () => Promise.resolve() };
}

/**
 * The payload store of a function the stack names no payload bucket to (FunctionGrants.payloads):
 * a use is a wiring bug, reported as such. Functions given the bucket have the S3 adapter.
 */
const unwiredPayloads: PayloadStore = {
  put: () => Promise.reject(new Error('This function was not given service.aws.payload-bucket')),
  get: () => Promise.reject(new Error('This function was not given service.aws.payload-bucket')),
};

/**
 * The Lambda handler of one queue consumer (lib/jobs), fed by an SQS event source: a partial batch
 * response names the messages to deliver again (lib/jobs/batch.ts).
 */
export function consumerHandler(
  consumer: Consumer<unknown>,
  parts: FunctionParts,
): (event: SQSEvent, context?: Pick<Context, 'awsRequestId'>) => Promise<SQSBatchResponse> {
  const services = awsServices(parts);
  let deps: JobDeps | undefined;
  return async (event, context) => {
    beginInvocation(context?.awsRequestId);
    deps ??= jobDepsOf(await services(), consumer);
    return runConsumer(consumer, event.Records, deps);
  };
}

/**
 * The Lambda handler of one periodic job (lib/jobs), run by an EventBridge rule; the event itself
 * carries nothing it needs. A Lambda keeps no timers, so it never runs as a catch-up.
 */
export function jobHandler(
  job: PeriodicJob,
  parts: FunctionParts,
): (event?: unknown, context?: Pick<Context, 'awsRequestId'>) => Promise<unknown> {
  const services = awsServices(parts);
  let deps: JobDeps | undefined;
  return async (_event, context) => {
    beginInvocation(context?.awsRequestId);
    deps ??= jobDepsOf(await services(), job);
    return job.run(deps, deps.clock.now(), { catchUp: false });
  };
}

/**
 * The Lambda handler of a capability's outside sources (Capability.outsideSources): records of its
 * SQS sources (a partial batch response names the records to deliver again), or the input one of
 * its EventBridge rules sends (a throw makes EventBridge retry), handed to the consumer they feed.
 * `parts` include the capability.
 */
export function outsideSourceHandler(
  capability: AnyCapability,
  parts: FunctionParts,
): (event: unknown) => Promise<BatchResponse | undefined> {
  const sources = capability.outsideSources;
  if (sources === undefined) throw new Error(`Capability '${capability.name}' declares no outside sources`);
  const { consumer } = sources;
  const services = awsServices(parts);
  let deps: JobDeps | undefined;
  return async (event) => {
    deps ??= jobDepsOf(await services(), consumer);
    const message = sources.messageOf(event);
    if (message !== undefined) {
      await consumer.handle(message, deps);
      return undefined;
    }
    const records = (event as { Records?: SourceRecord[] }).Records ?? [];
    return runConsumer(
      consumer,
      records.map((record) => sources.recordOf(record)),
      deps,
    );
  };
}
