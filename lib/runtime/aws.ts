/**
 * Composition root on AWS Lambda: configuration from the function's environment (set by the CDK
 * stack), DynamoDB tables and SQS queues created by the stack. Built once per cold start and
 * reused; every function (HTTP route group, queue consumer, periodic job) gets its handler here.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { loadConfig } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import { createQuickJsEvaluator } from '../engine/script/evaluator.ts';
import { type LambdaAdapterOptions, lambdaHttpHandler } from '../http/lambda-adapter.ts';
import { runConsumer } from '../jobs/batch.ts';
import { consumerNamed, jobNamed } from '../jobs/index.ts';
import type { ConsumerName, JobName } from '../jobs/types.ts';
import { createLogger, LOG_LEVELS } from '../log/logger.ts';
import { type Clock, systemClock } from '../model/clock.ts';
import { randomIds } from '../model/ids.ts';
import type { PayloadStore } from '../payloads/ports.ts';
import { S3PayloadStore } from '../payloads/s3.ts';
import type { DecisionQueue, WorkQueue } from '../queue/ports.ts';
import { SqsDecisionQueue } from '../queue/sqs.ts';
import { SqsWorkQueue } from '../queue/sqs-work-queue.ts';
import {
  QUEUE_URL_PROPERTIES,
  type SystemTaskMessage,
  unwiredWorkQueue,
  type WorkQueues,
} from '../queue/work-queues.ts';
import type { KeySource } from '../security/api-keys.ts';
import { secretsManagerKeys } from '../security/secrets-manager.ts';
import { dynamoSession } from '../store/dynamodb/index.ts';
import { LocalRunWatcher } from '../workflows/progress.ts';
import { jobDepsOf } from './job-deps.ts';
import { createRouter } from './router.ts';
import { createServices, type Services } from './services.ts';
import { createDynamoStores, tableNamesOf } from './stores.ts';

let services: Promise<Services> | undefined;

/** How often a waiting request re-reads its run on AWS: at most 4 reads a second per request. */
const AWS_REREAD_MS = 250;

export function awsServices(): Promise<Services> {
  services ??= (async () => {
    const config: ServiceConfig = loadConfig({ cwd: '/var/task' });
    const logger = createLogger({
      level: config.oneOf('service.log.level', LOG_LEVELS),
      format: 'json',
    });
    const endpoint = config.string('service.dynamodb.endpoint');
    // Region and credentials come from the Lambda environment through the SDK's own chain.
    const client = new DynamoDBClient(endpoint ? { endpoint } : {});
    const tables = tableNamesOf(config);
    return createServices({
      config,
      logger,
      clock: systemClock,
      stores: createDynamoStores(dynamoSession(client), tables),
      decisions: decisionQueueFrom(config, systemClock),
      workQueues: workQueuesFrom(config),
      payloads: payloadStoreFrom(config),
      systemTasks: systemTaskQueueFrom(config),
      // Cheap to build: its worker thread starts on the first script, which only the decider runs.
      scripts: createQuickJsEvaluator(),
      // Other Lambdas (the decider consumer, workers' updates) change runs this one waits on, and
      // their commits are not published here: a waiting request also re-reads every 250 ms.
      watcher: new LocalRunWatcher({ rereadMs: AWS_REREAD_MS }),
      apiKeys: apiKeysFrom(config),
    });
  })();
  return services;
}

/**
 * The stack gives the queue URLs (and the right to send) only to functions that send to a work
 * queue (infra/stack.ts). Elsewhere a request is a wiring bug, reported as such rather than as an
 * SQS error.
 */
function decisionQueueFrom(config: ServiceConfig, clock: Clock): DecisionQueue {
  const decisions = config.string(QUEUE_URL_PROPERTIES.decisions);
  const timers = config.string(QUEUE_URL_PROPERTIES.timers);
  if (decisions === undefined || timers === undefined) {
    const unwired = (): Promise<void> =>
      Promise.reject(
        new Error(
          `This function was not given ${QUEUE_URL_PROPERTIES.decisions} and ${QUEUE_URL_PROPERTIES.timers}`,
        ),
      );
    return { request: unwired, wakeAt: unwired };
  }
  return new SqsDecisionQueue(new SQSClient({}), { decisions, timers }, clock, randomIds);
}

/** The schedule fire queue, where the stack gave its URL (functions granted `sends: ['schedules']`). */
function workQueuesFrom(config: ServiceConfig): WorkQueues {
  const url = config.string(QUEUE_URL_PROPERTIES.schedules);
  return {
    schedules:
      url === undefined
        ? unwiredWorkQueue('schedules')
        : new SqsWorkQueue(
            new SQSClient({}),
            { name: 'schedules', url, type: 'standard' },
            randomIds,
            'schedule fire',
          ),
  };
}

/**
 * Functions that decide runs send HTTP tasks to the system-task queue (its consumer makes the
 * requests). A function without the queue's URL carries the task out itself, before it answers.
 */
function systemTaskQueueFrom(config: ServiceConfig): WorkQueue<SystemTaskMessage> {
  const url = config.string(QUEUE_URL_PROPERTIES['system-tasks']);
  if (url !== undefined)
    return new SqsWorkQueue(new SQSClient({}), { name: 'system-tasks', url, type: 'standard' }, randomIds);
  return { send: async (message) => (await awsServices()).engine.systemTasks.run(message) };
}

/** The API keys in the stack's Secrets Manager secret, where the stack gave its name (security on). */
function apiKeysFrom(config: ServiceConfig): KeySource | undefined {
  const secret = config.string('service.security.keys-secret');
  return secret === undefined
    ? undefined
    : secretsManagerKeys(new SecretsManagerClient({}), secret, systemClock);
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
  return lambdaHttpHandler(() => {
    adapter ??= awsServices().then((s) => ({
      router: createRouter(s, [group]),
      logger: s.logger,
      instance: s.config.requireString('service.instance-id'),
      maxBodyBytes: s.config.number('service.server.max-body-bytes'),
    }));
    return adapter;
  });
}

/**
 * The Lambda handler of one queue consumer (lib/jobs), fed by an SQS event source: a partial batch
 * response names the messages to deliver again (lib/jobs/batch.ts).
 */
export function consumerHandler(name: ConsumerName): (event: SQSEvent) => Promise<SQSBatchResponse> {
  const consumer = consumerNamed(name);
  return async (event) => {
    return runConsumer(consumer, event.Records, jobDepsOf(await awsServices()));
  };
}

/**
 * The Lambda handler of one periodic job (lib/jobs), run by an EventBridge rule; the event itself
 * carries nothing it needs. A Lambda keeps no timers, so it never runs as a catch-up.
 */
export function jobHandler(name: JobName): () => Promise<unknown> {
  const job = jobNamed(name);
  return async () => {
    const s = await awsServices();
    return job.run(jobDepsOf(s), s.clock.now(), { catchUp: false });
  };
}
