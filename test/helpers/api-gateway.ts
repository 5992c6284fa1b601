/**
 * API Gateway HTTP API (payload format 2.0) as seen from a test: hand-built events, and a `fetch`
 * that sends a test client's requests through a Lambda HTTP handler in-process, the way API Gateway
 * would, and turns the handler's results back into responses. The model is Inngest's
 * `testFramework(name, handler, { transformReq, transformRes })`: one client, two transports.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** The host API Gateway gives a default-stage HTTP API; the URL tests see in Lambda mode. */
export const API_GATEWAY_HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';

export type LambdaHttpHandler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

export interface EventInput {
  method: string;
  /** Path with query string, as the client sent it. */
  url: string;
  body?: string;
  base64?: boolean;
  headers?: Record<string, string>;
}

/** An API Gateway event for a request; `url` is used as the raw path as given. */
export function apiGatewayEvent({
  method,
  url,
  body,
  base64 = false,
  headers = {},
}: EventInput): APIGatewayProxyEventV2 {
  const [rawPath = '/', rawQueryString = ''] = url.split('?');
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers: { host: API_GATEWAY_HOST, ...headers },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: API_GATEWAY_HOST,
      domainPrefix: 'abc123',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: 'req-1',
      routeKey: '$default',
      stage: '$default',
      time: '01/Jan/2026:00:00:00 +0000',
      timeEpoch: Date.UTC(2026, 0, 1),
    },
    body,
    isBase64Encoded: base64,
  };
}

// The media types API Gateway passes as text; anything else arrives base64-encoded.
const TEXTUAL = /^(text\/|application\/(json|.*\+json|x-www-form-urlencoded|xml|javascript))/i;

/** transformReq: a web Request as API Gateway hands it to the function. */
export async function toApiGatewayEvent(request: Request): Promise<APIGatewayProxyEventV2> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const bytes = Buffer.from(await request.arrayBuffer());
  const textual = TEXTUAL.test(headers['content-type'] ?? '');
  const event = apiGatewayEvent({
    method: request.method,
    url: `${decodedPath(url.pathname)}${url.search}`,
    headers,
    base64: bytes.length > 0 && !textual,
  });
  if (bytes.length > 0) event.body = textual ? bytes.toString('utf8') : bytes.toString('base64');
  return event;
}

/**
 * HTTP APIs deliver `rawPath` URL-decoded (see lib/http/lambda-adapter.ts encodePath); a path that
 * does not decode is passed on as sent, so the router still answers it with its own 400.
 */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** transformRes: the handler's result as the client receives it from API Gateway. */
export function fromApiGatewayResult(result: APIGatewayProxyStructuredResultV2): Response {
  const status = result.statusCode ?? 200;
  const headers = new Headers();
  for (const [key, value] of Object.entries(result.headers ?? {})) headers.set(key, String(value));
  const body = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
  if (status === 204 || status === 304) return new Response(null, { status, headers });
  // API Gateway sends the length of the body it returns, as the node adapter does.
  headers.set('content-length', String(body.length));
  return new Response(new Uint8Array(body), { status, headers });
}

/** A `fetch` for absolute URLs on API_GATEWAY_HOST that runs each request through the handler. */
export function lambdaFetch(handler: LambdaHttpHandler) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    return fromApiGatewayResult(await handler(await toApiGatewayEvent(request)));
  };
}
