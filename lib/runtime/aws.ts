/**
 * Composition root on AWS Lambda: configuration from the function's environment (set by the CDK
 * stack), DynamoDB tables and SQS queues created by the stack. Built once per cold start and
 * reused; every function (HTTP route group, decider, timer consumer, sweeper) gets its handler here.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { loadConfig } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import { createQuickJsEvaluator } from '../engine/script/evaluator.ts';
import { type LambdaAdapterOptions, lambdaHttpHandler } from '../http/lambda-adapter.ts';
import { createLogger, LOG_LEVELS } from '../log/logger.ts';
import { type Clock, systemClock } from '../model/clock.ts';
import { randomIds } from '../model/ids.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import { SqsDecisionQueue } from '../queue/sqs.ts';
import { consumeDecisions, consumeTimers, type SweepResult, sweepWakeups } from './aws-consumers.ts';
import { createRouter } from './router.ts';
import { createServices, type Services } from './services.ts';
import { createDynamoStores, tableNamesOf } from './stores.ts';

let services: Promise<Services> | undefined;

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
      stores: createDynamoStores(client, tables),
      decisions: decisionQueueFrom(config, systemClock),
      // Cheap to build: its worker thread starts on the first script, which only the decider runs.
      scripts: createQuickJsEvaluator(),
    });
  })();
  return services;
}

/**
 * The stack gives the queue URLs (and the right to send) only to functions that request decides.
 * Elsewhere a request is a wiring bug, reported as such rather than as an SQS error.
 */
function decisionQueueFrom(config: ServiceConfig, clock: Clock): DecisionQueue {
  const decisions = config.string('service.aws.decision-queue-url');
  const timers = config.string('service.aws.timer-queue-url');
  if (decisions === undefined || timers === undefined) {
    const unwired = (): Promise<void> =>
      Promise.reject(
        new Error(
          'This function was not given service.aws.decision-queue-url and service.aws.timer-queue-url',
        ),
      );
    return { request: unwired, wakeAt: unwired };
  }
  return new SqsDecisionQueue(new SQSClient({}), { decisions, timers }, clock, randomIds);
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

/** The decider: consumes the FIFO decision queue (partial batch responses). */
export function deciderHandler(): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const s = await awsServices();
    return consumeDecisions(event, { decide: (id) => s.engine.executor.decide(id), logger: s.logger });
  };
}

/** The timer consumer: forwards due wake-ups from the timer queue to the decision queue. */
export function timerHandler(): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const s = await awsServices();
    return consumeTimers(event, { decisions: s.decisions, logger: s.logger });
  };
}

/** The sweeper, run by an EventBridge schedule; the event itself carries nothing it needs. */
export function sweeperHandler(): () => Promise<SweepResult> {
  return async () => {
    const s = await awsServices();
    return sweepWakeups({
      executions: s.stores.executions,
      decisions: s.decisions,
      clock: s.clock,
      logger: s.logger,
    });
  };
}
