/**
 * Composition root on AWS Lambda: configuration from the function's environment (set by the CDK
 * stack), DynamoDB tables and SQS queues created by the stack. Built once per cold start and
 * reused; every function (HTTP route group, queue consumer, periodic job) gets its handler here.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { S3Client } from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
  DynamoDBStreamEvent,
  SQSBatchResponse,
  SQSEvent,
} from 'aws-lambda';
import {
  CONSUMERS,
  capabilityNamed,
  consumerNamed,
  jobNamed,
  queueUrlProperty,
  streamConsumerNamed,
} from '../capabilities.ts';
import { loadConfig } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import { EventBridgePublisher } from '../engine/event-sinks/eventbridge.ts';
import { SqsEventPublisher } from '../engine/event-sinks/sqs.ts';
import { createQuickJsEvaluator } from '../engine/script/evaluator.ts';
import { type LambdaAdapterOptions, lambdaHttpHandler } from '../http/lambda-adapter.ts';
import { type BatchResponse, runConsumer, type SourceRecord } from '../jobs/batch.ts';
import type {
  ConsumerName,
  JobDeps,
  JobName,
  StreamConsumerDeps,
  StreamConsumerName,
} from '../jobs/types.ts';
import { beginInvocation, invocationContext } from '../log/invocation.ts';
import { createLogger, LOG_LEVELS } from '../log/logger.ts';
import { embeddedMetrics } from '../log/metrics.ts';
import { type Clock, systemClock } from '../model/clock.ts';
import { randomIds } from '../model/ids.ts';
import { LocalNotifier } from '../model/notifier.ts';
import type { PayloadStore } from '../payloads/ports.ts';
import { S3PayloadStore } from '../payloads/s3.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import { SqsDecisionQueue } from '../queue/sqs.ts';
import { SqsWorkQueue } from '../queue/sqs-work-queue.ts';
import type { WorkQueueName } from '../queue/work-queues.ts';
import { OpenSearchIndex } from '../search/opensearch/opensearch-index.ts';
import { SignedOpenSearchHttp } from '../search/opensearch/signed-http.ts';
import type { KeySource } from '../security/api-keys.ts';
import { refreshingKeys } from '../security/refreshing-keys.ts';
import { type ExecutionStreamRecord, executionChangesOf } from '../store/dynamodb/execution-changes.ts';
import { DynamoExecutionStore } from '../store/dynamodb/executions.ts';
import { documentClient, dynamoSession } from '../store/dynamodb/index.ts';
import { EXECUTIONS_TABLE, tableName } from '../store/dynamodb/tables.ts';
import { LocalRunWatcher } from '../workflows/progress.ts';
import { jobDepsOf } from './job-deps.ts';
import { createRouter } from './router.ts';
import { createServices, type Services } from './services.ts';
import { createDynamoStores, tableNamesOf } from './stores.ts';

let services: Promise<Services> | undefined;

/** How often a waiting request re-reads its run on AWS: at most 4 reads a second per request. */
const AWS_REREAD_MS = 250;

/**
 * The function's configuration, from its environment (set by the stack), and its logger; `env`
 * and `write` stand in for the process's in tests.
 */
export function awsConfig(
  options: { env?: Record<string, string | undefined>; write?: (line: string) => void } = {},
) {
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

export function awsServices(): Promise<Services> {
  services ??= (async () => {
    const { config, logger } = awsConfig();
    const client = dynamoClientFrom(config);
    // One SQS client for every queue this function sends to (its connections are shared).
    const sqs = new SQSClient({});
    const tables = tableNamesOf(config);
    return createServices({
      config,
      logger,
      metrics: embeddedMetrics(),
      clock: systemClock,
      stores: createDynamoStores(dynamoSession(client), tables),
      decisions: decisionQueueFrom(config, systemClock, sqs),
      workQueues: workQueuesFrom(config, sqs),
      payloads: payloadStoreFrom(config),
      // Sinks outside the service; the role limits which queues and buses (the eventSinks context).
      eventPublishers: {
        sqs: new SqsEventPublisher(sqs),
        eventbridge: new EventBridgePublisher(new EventBridgeClient({})),
      },
      // Cheap to build: its worker thread starts on the first script, which only the decider runs.
      scripts: createQuickJsEvaluator(),
      // Other Lambdas (the decider consumer, workers' updates) change runs this one waits on, and
      // their commits are not published here: a waiting request also re-reads every 250 ms.
      watcher: new LocalRunWatcher({ rereadMs: AWS_REREAD_MS }),
      searchIndex:
        config.oneOf('service.search.backend', SEARCH_BACKENDS) === 'opensearch'
          ? openSearchIndexFrom(config)
          : undefined,
      // Pushes to worker queues are made by the decider consumer: a waiting poll re-reads its queue,
      // 100 ms after it began and then at doubling intervals up to 1 s (bounded reads per idle poll).
      queueWatcher: new LocalNotifier({
        initialMs: config.number('service.tasks.poll.reread-initial'),
        maxMs: config.number('service.tasks.poll.reread-max'),
      }),
      apiKeys: apiKeysFrom(config),
    });
  })();
  return services;
}

const SEARCH_BACKENDS = ['store', 'opensearch'] as const;

/**
 * The OpenSearch index the stack names to the functions that search or index (FunctionGrants.search),
 * signed with the function's own role (the SDK's credential chain).
 */
export function openSearchIndexFrom(config: ServiceConfig): OpenSearchIndex {
  const http = new SignedOpenSearchHttp(
    {
      url: config.requireString('service.search.opensearch.endpoint'),
      region: config.requireString('service.search.opensearch.region'),
      service: config.oneOf('service.search.opensearch.service', ['aoss', 'es'] as const),
    },
    defaultProvider(),
  );
  return new OpenSearchIndex(http, config.requireString('service.search.opensearch.index-prefix'));
}

/**
 * The stack gives the queue URLs (and the right to send) only to functions that send to a work
 * queue (infra/stack.ts). Elsewhere a request is a wiring bug, reported as such rather than as an
 * SQS error.
 */
function decisionQueueFrom(config: ServiceConfig, clock: Clock, sqs: SQSClient): DecisionQueue {
  const properties = { decisions: queueUrlProperty('decisions'), timers: queueUrlProperty('timers') };
  const decisions = config.string(properties.decisions);
  const timers = config.string(properties.timers);
  if (decisions === undefined || timers === undefined) {
    const unwired = (): Promise<void> =>
      Promise.reject(
        new Error(`This function was not given ${properties.decisions} and ${properties.timers}`),
      );
    return { request: unwired, requestForTasks: unwired, wakeAt: unwired, settled: () => Promise.resolve() };
  }
  return new SqsDecisionQueue(sqs, { decisions, timers }, clock, randomIds);
}

/** The queues the decision queue is made of (it has its own port, DecisionQueue). */
const DECISION_QUEUES: readonly WorkQueueName[] = ['decisions', 'timers'];

/**
 * Every consumer's queue the stack gave this function the URL of (with the right to send,
 * `sends: [...]`): schedule fires, system tasks (HTTP; the decider never makes a request itself,
 * which would hold a decide on a slow endpoint), `conductor:` events. A queue without its URL stays
 * unwired: a send fails naming the property (the executor fails such a task with that reason).
 */
export function workQueuesFrom(
  config: ServiceConfig,
  sqs: SQSClient = new SQSClient({}),
): Record<WorkQueueName, SqsWorkQueue<unknown>> {
  const queues: Record<string, SqsWorkQueue<unknown>> = {};
  for (const { queue } of CONSUMERS) {
    if (DECISION_QUEUES.includes(queue.name)) continue;
    const url = config.string(queue.urlProperty);
    if (url === undefined) continue;
    const address = { name: queue.name, url, type: queue.type };
    queues[queue.name] = new SqsWorkQueue(sqs, address, randomIds, queue.what);
  }
  return queues;
}

/** The API keys in the stack's Secrets Manager secret, where the stack gave its name (security on). */
function apiKeysFrom(config: ServiceConfig): KeySource | undefined {
  const secret = config.string('service.security.keys-secret');
  return secret === undefined
    ? undefined
    : refreshingKeys(secretReader(new SecretsManagerClient({}), secret), secret, systemClock);
}

/** Reads a Secrets Manager secret's string (the API keys' source on AWS). */
export function secretReader(
  client: SecretsManagerClient,
  secretId: string,
): () => Promise<string | undefined> {
  return async () => (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
}

/**
 * The stack names the payload bucket (and grants its `payloads/` prefix) only to functions that
 * read and write runs (FunctionGrants.payloads); elsewhere a use is a wiring bug, reported as such.
 */
function payloadStoreFrom(config: ServiceConfig): PayloadStore {
  const bucket = config.string('service.aws.payload-bucket');
  if (bucket !== undefined) return new S3PayloadStore(new S3Client({}), bucket);
  const unwired = (): Promise<never> =>
    Promise.reject(new Error('This function was not given service.aws.payload-bucket'));
  return { put: unwired, get: unwired };
}

/** The Lambda handler of one capability's routes (functions/<capability>.ts). */
export function httpGroupHandler(group: string) {
  let adapter: Promise<LambdaAdapterOptions> | undefined;
  const handle = lambdaHttpHandler(() => {
    adapter ??= awsServices().then((s) => ({
      router: createRouter(s, [group]),
      logger: s.logger,
      instance: s.config.requireString('service.instance-id'),
      maxBodyBytes: s.config.number('service.server.max-body-bytes'),
    }));
    return adapter;
  });
  return (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    // API Gateway's request id: the same as in the stage's access log line.
    beginInvocation(event.requestContext.requestId);
    return handle(event);
  };
}

/**
 * The Lambda handler of one queue consumer (lib/jobs), fed by an SQS event source: a partial batch
 * response names the messages to deliver again (lib/jobs/batch.ts).
 */
export function consumerHandler(
  name: ConsumerName,
): (event: SQSEvent, context?: Pick<Context, 'awsRequestId'>) => Promise<SQSBatchResponse> {
  const consumer = consumerNamed(name);
  let deps: JobDeps | undefined;
  return async (event, context) => {
    beginInvocation(context?.awsRequestId);
    deps ??= jobDepsOf(await awsServices(), consumer);
    return runConsumer(consumer, event.Records, deps);
  };
}

/**
 * The Lambda handler of one periodic job (lib/jobs), run by an EventBridge rule; the event itself
 * carries nothing it needs. A Lambda keeps no timers, so it never runs as a catch-up.
 */
export function jobHandler(
  name: JobName,
): (event?: unknown, context?: Pick<Context, 'awsRequestId'>) => Promise<unknown> {
  const job = jobNamed(name);
  let deps: JobDeps | undefined;
  return async (_event, context) => {
    beginInvocation(context?.awsRequestId);
    deps ??= jobDepsOf(await awsServices(), job);
    return job.run(deps, deps.clock.now(), { catchUp: false });
  };
}

/**
 * The Lambda handler of one stream consumer (lib/jobs), fed by a DynamoDB Streams event source:
 * the records become domain changes here (the adapter), the consumer applies them (to the search
 * index, or to the execution store). A throw fails the batch, which the event source retries in
 * order (and halves) before giving up.
 */
export function streamConsumerHandler(
  name: StreamConsumerName,
): (event: DynamoDBStreamEvent) => Promise<void> {
  const consumer = streamConsumerNamed(name);
  let deps: StreamConsumerDeps | undefined;
  return async (event) => {
    deps ??= streamConsumerDeps();
    await consumer.handle(executionChangesOf(event.Records as ExecutionStreamRecord[]), deps);
  };
}

/** A stream consumer's ports, each made when first asked for (a consumer uses one of them). */
function streamConsumerDeps(): StreamConsumerDeps {
  const { config, logger } = awsConfig();
  let index: OpenSearchIndex | undefined;
  let remover: DynamoExecutionStore | undefined;
  return {
    logger,
    index: () => {
      index ??= openSearchIndexFrom(config);
      return index;
    },
    expiredRuns: () => {
      remover ??= new DynamoExecutionStore(
        documentClient(dynamoClientFrom(config)),
        tableName(tableNamesOf(config), EXECUTIONS_TABLE),
      );
      return remover;
    },
  };
}

/** The DynamoDB client; region and credentials come from the Lambda environment (the SDK's chain). */
function dynamoClientFrom(config: ServiceConfig): DynamoDBClient {
  const endpoint = config.string('service.dynamodb.endpoint');
  return new DynamoDBClient(endpoint ? { endpoint } : {});
}

/**
 * The Lambda handler of a capability's outside sources (Capability.outsideSources): records of its
 * SQS sources (a partial batch response names the records to deliver again), or the input one of
 * its EventBridge rules sends (a throw makes EventBridge retry), handed to the consumer they feed.
 */
export function outsideSourceHandler(
  capability: string,
): (event: unknown) => Promise<BatchResponse | undefined> {
  const sources = capabilityNamed(capability).outsideSources;
  if (sources === undefined) throw new Error(`Capability '${capability}' declares no outside sources`);
  const { consumer } = sources;
  let deps: JobDeps | undefined;
  return async (event) => {
    deps ??= jobDepsOf(await awsServices(), consumer);
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
