/**
 * The HTTP API's front door, from the template's routes and integrations: a request goes to the
 * function of the route API Gateway would choose (an exact path first, then the most specific
 * template, a greedy `{proxy+}` last; a route of the request's method before ANY), as a
 * payload-format-2.0 event, and the function's answer goes back as API Gateway sends it. The route
 * must also be allowed to invoke its function (an AWS::Lambda::Permission for
 * apigateway.amazonaws.com whose SourceArn matches), or API Gateway answers 500 as it does on AWS.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LambdaFunction } from './functions.ts';
import { readBody } from './http.ts';
import { ACCOUNT, REGION, type ResolvedTemplate } from './template.ts';

interface Route {
  method: string;
  segments: string[];
  routeKey: string;
  fn: LambdaFunction;
  permitted: boolean;
}

/** API Gateway's limits: 10 MB payloads, 30 s integrations. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const INTEGRATION_TIMEOUT_MS = 30_000;

export class ApiGateway {
  private server!: Server;
  readonly routes: Route[] = [];
  url = '';
  apiId = '';

  constructor(
    template: ResolvedTemplate,
    functionsByArn: ReadonlyMap<string, LambdaFunction>,
    permissions: Permissions,
  ) {
    const [api] = template.ofType('AWS::ApiGatewayV2::Api');
    this.apiId = api ?? '';
    for (const id of template.ofType('AWS::ApiGatewayV2::Route')) {
      const props = template.properties(id);
      const routeKey = String(props.RouteKey);
      const integrationId = String(props.Target).replace(/^integrations\//, '');
      const integration = template.properties(integrationId);
      if (integration.IntegrationType !== 'AWS_PROXY' || integration.PayloadFormatVersion !== '2.0') {
        throw new Error(
          `Route ${routeKey}: only Lambda proxy integrations, payload 2.0, are run by the harness`,
        );
      }
      const fn = functionsByArn.get(String(integration.IntegrationUri));
      if (!fn) throw new Error(`Route ${routeKey}: no function ${String(integration.IntegrationUri)}`);
      const [method = 'ANY', path = '/'] = routeKey.split(' ');
      const sourceArn = `arn:aws:execute-api:${REGION}:${ACCOUNT}:${this.apiId}/$default/${method === 'ANY' ? 'GET' : method}${path}`;
      this.routes.push({
        method,
        segments: path.split('/').filter(Boolean),
        routeKey,
        fn,
        permitted: permissions.allows(fn.spec.arn, 'apigateway.amazonaws.com', sourceArn),
      });
    }
  }

  async listen(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Internal Server Error', harness: String(error) }));
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The route API Gateway picks for a method and a (decoded) path, with its path parameters. */
  match(method: string, path: string): { route: Route; parameters: Record<string, string> } | undefined {
    const parts = path.split('/').filter(Boolean);
    let best: { route: Route; parameters: Record<string, string>; score: number[] } | undefined;
    for (const route of this.routes) {
      if (route.method !== method && route.method !== 'ANY') continue;
      const parameters: Record<string, string> = {};
      let literal = 0;
      let greedy = 0;
      let ok = true;
      for (const [index, segment] of route.segments.entries()) {
        const greedyName = /^\{(.+)\+\}$/.exec(segment)?.[1];
        if (greedyName) {
          const rest = parts.slice(index);
          if (rest.length === 0 || index !== route.segments.length - 1) ok = false;
          else parameters[greedyName] = rest.join('/');
          greedy = 1;
          break;
        }
        const part = parts[index];
        if (part === undefined) {
          ok = false;
          break;
        }
        const name = /^\{(.+)\}$/.exec(segment)?.[1];
        if (name) parameters[name] = part;
        else if (segment === part) literal += 1;
        else {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (!greedy && route.segments.length !== parts.length) continue;
      // Fewer greedy matches, then more literal segments, then the method's own route before ANY.
      const score = [-greedy, literal, route.segments.length, route.method === method ? 1 : 0];
      if (!best || compare(score, best.score) > 0) best = { route, parameters, score };
    }
    return best && { route: best.route, parameters: best.parameters };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const body = await readBody(req);
    if (body.length > MAX_BODY_BYTES) return send(res, 413, { message: 'Request Entity Too Large' });
    const path = decodeURIComponent(url.pathname);
    const method = req.method ?? 'GET';
    const matched = this.match(method, path);
    if (!matched) return send(res, 404, { message: 'Not Found' });
    const { route, parameters } = matched;
    if (!route.permitted) return send(res, 500, { message: 'Internal Server Error' });
    const event = eventOf(req, url, path, body, route.routeKey, parameters, this.apiId);
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), INTEGRATION_TIMEOUT_MS).unref(),
    );
    const outcome = await Promise.race([route.fn.invoke(event), timeout]);
    if (outcome === 'timeout') return send(res, 503, { message: 'Service Unavailable' });
    if (!outcome.ok) return send(res, 500, { message: 'Internal Server Error' });
    return reply(res, outcome.result);
  }
}

/** The Lambda permissions of the template: which service may invoke which function, from where. */
export class Permissions {
  private readonly grants: { fn: string; principal: string; sourceArn?: string }[] = [];

  constructor(template: ResolvedTemplate, functionNameToArn: (nameOrArn: string) => string) {
    for (const id of template.ofType('AWS::Lambda::Permission')) {
      const props = template.properties(id);
      this.grants.push({
        fn: functionNameToArn(String(props.FunctionName)),
        principal: String(props.Principal),
        sourceArn: props.SourceArn === undefined ? undefined : String(props.SourceArn),
      });
    }
  }

  allows(functionArn: string, principal: string, sourceArn: string): boolean {
    return this.grants.some(
      (grant) =>
        grant.fn === functionArn &&
        grant.principal === principal &&
        (grant.sourceArn === undefined || globMatches(grant.sourceArn, sourceArn)),
    );
  }
}

function globMatches(pattern: string, value: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(value);
}

function compare(a: number[], b: number[]): number {
  for (const [index, value] of a.entries()) {
    const other = b[index] ?? 0;
    if (value !== other) return value - other;
  }
  return 0;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+json)/i;

function eventOf(
  req: IncomingMessage,
  url: URL,
  path: string,
  body: Buffer,
  routeKey: string,
  pathParameters: Record<string, string>,
  apiId: string,
) {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') cookies.push(...String(value).split(/;\s*/));
    else headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams)
    query[name] = name in query ? `${query[name]},${value}` : value;
  const text = body.length === 0 || TEXT_TYPES.test(String(req.headers['content-type'] ?? ''));
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: url.search.slice(1),
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(url.search ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    requestContext: {
      accountId: ACCOUNT,
      apiId,
      domainName: `${apiId}.execute-api.${REGION}.amazonaws.com`,
      domainPrefix: apiId,
      http: {
        method: req.method,
        path,
        protocol: 'HTTP/1.1',
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !text,
  };
}

/** A payload-2.0 answer: a structured result, or any other value as a 200 JSON body. */
function reply(res: ServerResponse, result: unknown): void {
  if (!result || typeof result !== 'object' || !('statusCode' in result)) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(typeof result === 'string' ? result : JSON.stringify(result));
    return;
  }
  const answer = result as {
    statusCode: number;
    headers?: Record<string, string | number | boolean>;
    cookies?: string[];
    body?: string;
    isBase64Encoded?: boolean;
  };
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name] = String(value);
  if (answer.cookies?.length) headers['set-cookie'] = answer.cookies;
  res.writeHead(answer.statusCode, headers);
  res.end(
    answer.body === undefined
      ? undefined
      : Buffer.from(answer.body, answer.isBase64Encoded ? 'base64' : 'utf8'),
  );
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
