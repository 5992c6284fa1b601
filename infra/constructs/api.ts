/**
 * The public HTTP entry: one API Gateway HTTP API on its `$default` stage, with routes added per
 * route group from its capability's route keys (Capability.apiRoutes). Each route goes straight to
 * its group's function (payload format 2.0, which lib/http/lambda-adapter.ts reads).
 */
import { CorsHttpMethod, HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { pascalCase, routeId } from './names.ts';

export class ServiceApi extends Construct {
  readonly httpApi: HttpApi;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Conductor-compatible workflow orchestration API',
      // API Gateway answers preflight requests itself and adds these headers to every response, so
      // the management UI and browser clients on another origin can call the API.
      corsPreflight: {
        allowOrigins: ['*'],
        allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.DELETE],
        // X-Authorization carries the token when authentication is on (lib/security).
        allowHeaders: ['content-type', 'x-authorization'],
      },
    });
  }

  /** The invoke URL of the `$default` stage (no stage segment in the path). */
  get url(): string {
    return this.httpApi.apiEndpoint;
  }

  /** One route per key (`'GET /health'`, `'ANY /api/metadata/{proxy+}'`), all served by `handler`. */
  addRoutes(group: string, routeKeys: readonly string[], handler: IFunction): HttpRoute[] {
    const integration = new HttpLambdaIntegration(`${pascalCase(group)}Integration`, handler);
    return routeKeys.map(
      (key) =>
        new HttpRoute(this, routeId(key), {
          httpApi: this.httpApi,
          routeKey: parseRouteKey(key),
          integration,
        }),
    );
  }
}

const METHODS: ReadonlySet<string> = new Set(Object.values(HttpMethod));

/** `'GET /api/version'` -> HttpRouteKey; a typo in the route table fails the synth, not a request. */
export function parseRouteKey(key: string): HttpRouteKey {
  const match = /^([A-Z]+) (\/\S*)$/.exec(key);
  const method = match?.[1];
  const path = match?.[2];
  if (method === undefined || path === undefined || !METHODS.has(method)) {
    throw new Error(`Route key '${key}' is not '<METHOD> /path' with a method API Gateway knows`);
  }
  return HttpRouteKey.with(path, method as HttpMethod);
}
