/**
 * Limits and access logs of the HTTP API's `$default` stage: a rate and burst every route shares
 * (API Gateway answers 429 past them, before any function runs) and one JSON access log line per
 * request in its own log group. The line holds the route and path, never the query string (where
 * presigned URLs carry their signatures) nor any header (X-Authorization carries tokens).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { CfnStage, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export interface ApiStageLimits {
  /** Steady requests per second across the API. */
  rateLimit: number;
  /** Requests API Gateway accepts at once above the rate. */
  burstLimit: number;
}

/** Stack defaults; `-c apiRateLimit=… -c apiBurstLimit=…` change them (infra/app.ts). */
export const DEFAULT_API_LIMITS: ApiStageLimits = { rateLimit: 500, burstLimit: 1000 };

/** HTTP API `$context` variables of one access log line (API Gateway developer guide, "HTTP API logging"). */
const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTimeEpoch',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
});

export class ApiStageSettings extends Construct {
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, api: HttpApi, limits: ApiStageLimits) {
    super(scope, id);
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isInteger(value) || value < 1) {
        throw new Error(`API ${name} must be a positive whole number, got ${String(value)}`);
      }
    }
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const stage = api.defaultStage?.node.defaultChild;
    if (!(stage instanceof CfnStage)) throw new Error('The HTTP API has no $default stage to configure');
    stage.defaultRouteSettings = {
      throttlingRateLimit: limits.rateLimit,
      throttlingBurstLimit: limits.burstLimit,
    };
    stage.accessLogSettings = { destinationArn: this.accessLogs.logGroupArn, format: ACCESS_LOG_FORMAT };
  }
}
