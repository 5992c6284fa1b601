/**
 * API Gateway HTTP API (payload format 2.0) <-> web Request/Response.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Logger } from '../log/logger.ts';
import { PayloadTooLargeError, quote, ValidationError } from '../model/errors.ts';
import { logAccess } from './access-log.ts';
import { isTextual } from './content-types.ts';
import { checkEdge, headerBytesOf } from './edge.ts';
import { errorResponse } from './error-response.ts';
import type { Router } from './router.ts';

export interface LambdaAdapterOptions {
  router: Router;
  logger: Logger;
  instance: string;
  maxBodyBytes: number;
}

export function toRequest(event: APIGatewayProxyEventV2, maxBodyBytes: number): Request {
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  const method = event.requestContext.http.method;
  const present = Object.entries(event.headers).filter((e): e is [string, string] => e[1] !== undefined);
  checkEdge({ method, target: `${event.rawPath}${query}`, headerBytes: headerBytesOf(present) });
  const headers = new Headers();
  try {
    for (const [key, value] of present) headers.set(key, value);
    if (event.cookies?.length) headers.set('cookie', event.cookies.join('; '));
  } catch {
    throw new ValidationError('Malformed request header');
  }
  let body: Buffer | undefined;
  if (event.body !== undefined && method !== 'GET' && method !== 'HEAD') {
    body = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
    if (body.length > maxBodyBytes) {
      throw new PayloadTooLargeError(
        `Request body of ${body.length} bytes exceeds the limit of ${maxBodyBytes} bytes`,
      );
    }
  }
  // The origin is never read by routing (the local payload URLs use it): API Gateway's own domain
  // name, never a client's Host header, and a fixed one when that is not a plain host name.
  const domain = event.requestContext?.domainName;
  const host = domain !== undefined && /^[A-Za-z0-9.-]{1,255}$/.test(domain) ? domain : 'localhost';
  const path = encodePath(event.rawPath);
  try {
    return new Request(`https://${host}${path.startsWith('/') ? path : `/${path}`}${query}`, {
      method,
      headers,
      body: body && new Uint8Array(body),
    });
  } catch {
    throw new ValidationError(`Malformed request target '${quote(event.rawPath)}${quote(query)}'`);
  }
}

/**
 * API Gateway HTTP APIs deliver `rawPath` already URL-decoded (REST APIs and function URLs do
 * not). Characters that can never appear literally in an encoded path are escaped again, so a
 * decoded `?`, `#`, space or non-ASCII name cannot truncate or re-split the URL; an encoded path
 * passes through unchanged. A decoded `%2F` is indistinguishable from `/` and is read as one.
 */
export function encodePath(path: string): string {
  return path.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (c) => encodeURIComponent(c));
}

export async function toResult(response: Response): Promise<APIGatewayProxyStructuredResultV2> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const textual = isTextual(headers['content-type']);
  return {
    statusCode: response.status,
    headers,
    body: textual ? bytes.toString('utf8') : bytes.toString('base64'),
    isBase64Encoded: !textual,
  };
}

export function lambdaHttpHandler(options: () => Promise<LambdaAdapterOptions>) {
  return async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const startedAt = performance.now();
    const { router, logger, instance, maxBodyBytes } = await options();
    const method = event.requestContext.http.method;
    const target = event.rawQueryString ? `${event.rawPath}?${event.rawQueryString}` : event.rawPath;
    let response: Response;
    try {
      response = await router.handle(toRequest(event, maxBodyBytes));
    } catch (error) {
      response = errorResponse(error, instance, logger, `${method} ${quote(event.rawPath)}`);
    }
    const result = await toResult(response);
    logAccess(logger, {
      method,
      target,
      status: response.status,
      startedAt,
      requestId: event.requestContext.requestId,
    });
    return result;
  };
}
