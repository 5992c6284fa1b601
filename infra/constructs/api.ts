/**
 * The public HTTP entry: one API Gateway HTTP API on its `$default` stage, with routes added per
 * route group from its capability's route keys (Capability.apiRoutes). Each route goes straight to
 * its group's function (payload format 2.0, which lib/http/lambda-adapter.ts reads).
 *
 * CORS: none by default. The management UI needs none: CloudFront serves it and the API on one
 * origin (`/api/*` goes to this API: infra/constructs/ui.ts), and SDKs and workers are not
 * browsers. Browser applications on other origins are named one by one (`-c corsOrigins=...`);
 * `*` is refused. The distribution's own domain cannot be written here anyway: the distribution
 * names this API as its origin, so the API naming the distribution would be a dependency cycle.
 */
import { CorsHttpMethod, HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { pascalCase, routeId } from './names.ts';

export interface ServiceApiProps {
  /**
   * Origins (`https://app.example.com`, scheme, host and port only) whose pages may call the API
   * from a browser; none by default (`-c corsOrigins=...`).
   */
  corsOrigins?: readonly string[];
}

/** `https://host` or `http://host:port`: what a browser sends as Origin (no path, no wildcard). */
const ORIGIN = /^https?:\/\/[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** The CORS origins, each checked: a mistake fails the synth rather than every browser call. */
export function corsOriginsOf(origins: readonly string[]): string[] {
  return origins.map((origin) => {
    if (origin === '*') {
      throw new Error(
        "CORS origin '*' would let any web page call the API from its visitors' browsers: name each origin (-c corsOrigins=https://app.example.com,...)",
      );
    }
    if (!ORIGIN.test(origin)) {
      throw new Error(
        `CORS origin '${origin}' is not an origin: give the scheme, host and port only, as a browser sends it (https://app.example.com)`,
      );
    }
    return origin;
  });
}

export class ServiceApi extends Construct {
  readonly httpApi: HttpApi;

  constructor(scope: Construct, id: string, props: ServiceApiProps = {}) {
    super(scope, id);
    const origins = corsOriginsOf(props.corsOrigins ?? []);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Conductor-compatible workflow orchestration API',
      // API Gateway answers preflight requests itself and adds these headers to the responses to
      // the listed origins; without origins, no CORS headers at all.
      corsPreflight:
        origins.length === 0
          ? undefined
          : {
              allowOrigins: origins,
              allowMethods: [
                CorsHttpMethod.GET,
                CorsHttpMethod.POST,
                CorsHttpMethod.PUT,
                CorsHttpMethod.DELETE,
              ],
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
