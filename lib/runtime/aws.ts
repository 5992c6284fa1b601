/**
 * Composition root on AWS Lambda: configuration from the function's environment (set by the CDK
 * stack), DynamoDB tables created by the stack. Built once per cold start and reused.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { loadConfig } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import { createRouter } from '../http/app.ts';
import { type LambdaAdapterOptions, lambdaHttpHandler } from '../http/lambda-adapter.ts';
import type { RouteGroupName } from '../http/route-table.ts';
import { createLogger, type LogLevel } from '../log/logger.ts';
import { systemClock } from '../model/clock.ts';
import { createDynamoStores, tableNamesFrom } from '../store/dynamodb/index.ts';
import { createServices, type Services } from './services.ts';

let services: Promise<Services> | undefined;

export function awsServices(): Promise<Services> {
  services ??= (async () => {
    const config: ServiceConfig = loadConfig({ cwd: '/var/task' });
    const logger = createLogger({
      level: config.requireString('service.log.level') as LogLevel,
      format: 'json',
    });
    const endpoint = config.string('service.dynamodb.endpoint');
    // Region and credentials come from the Lambda environment through the SDK's own chain.
    const client = new DynamoDBClient(endpoint ? { endpoint } : {});
    const tables = tableNamesFrom(config.requireString('service.dynamodb.table-prefix'), {
      definitions: config.string('service.dynamodb.tables.definitions'),
      executions: config.string('service.dynamodb.tables.executions'),
      queues: config.string('service.dynamodb.tables.queues'),
    });
    return createServices({ config, logger, clock: systemClock, stores: createDynamoStores(client, tables) });
  })();
  return services;
}

/** The Lambda handler of one route group. */
export function httpGroupHandler(group: RouteGroupName) {
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
