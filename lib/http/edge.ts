/**
 * Checks every host makes before a request reaches the router, so the answers to requests too
 * large or too strange to route (414, 431, 400, 405) carry the JSON error body like every other
 * error. node:http and the Lambda adapter share these limits; node:http also answers what its
 * own parser refuses (clientErrorResponse), which would otherwise be a bare status line.
 */
import {
  HeadersTooLargeError,
  MethodNotAllowedError,
  quote,
  UriTooLongError,
  ValidationError,
} from '../model/errors.ts';

/** Longest request target (path and query), in bytes; longer is 414. */
export const MAX_URL_BYTES = 8 * 1024;
/** Largest header section (names and values), in bytes; larger is 431. */
export const MAX_HEADER_BYTES = 16 * 1024;
/**
 * What node:http's parser itself accepts: above our own limits, so that it is our check, with a
 * proper answer, that refuses most oversized requests; beyond it the clientError answer applies.
 */
export const PARSER_MAX_HEADER_BYTES = 64 * 1024;

/** Methods a route may declare, plus HEAD and OPTIONS (answered 404/405 by the router). */
const KNOWN_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface EdgeRequest {
  method: string;
  /** The request target as sent: path and query, still encoded. */
  target: string;
  /** Size of the header section (each name and value). */
  headerBytes: number;
}

/** Throws the typed error of the first limit a request breaks. */
export function checkEdge(request: EdgeRequest): void {
  if (!KNOWN_METHODS.has(request.method)) {
    throw new MethodNotAllowedError(`Method ${quote(request.method)} is not supported`);
  }
  const targetBytes = Buffer.byteLength(request.target, 'utf8');
  if (targetBytes > MAX_URL_BYTES) {
    throw new UriTooLongError(
      `Request target of ${targetBytes} bytes exceeds the limit of ${MAX_URL_BYTES} bytes`,
    );
  }
  if (request.headerBytes > MAX_HEADER_BYTES) {
    throw new HeadersTooLargeError(
      `Request headers of ${request.headerBytes} bytes exceed the limit of ${MAX_HEADER_BYTES} bytes`,
    );
  }
  // Path and query are read as UTF-8 after percent-decoding; a raw byte outside it (or a lone
  // surrogate) can never name anything.
  if (LONE_SURROGATE.test(request.target)) {
    throw new ValidationError('Request target is not valid UTF-8');
  }
}

/** Bytes of one header line: `name: value` and its CRLF. */
const lineBytes = (name: string, value: string) => name.length + value.length + 4;

/** Bytes of a header section given as name/value pairs. */
export function headerBytesOf(headers: Iterable<[string, string]>): number {
  let total = 0;
  for (const [name, value] of headers) total += lineBytes(name, value);
  return total;
}

/** The same over node's flat [name, value, name, value...] list (rawHeaders), without pairing it up. */
export function rawHeaderBytesOf(raw: readonly string[]): number {
  let total = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) total += lineBytes(raw[i] as string, raw[i + 1] as string);
  return total;
}

/** Parser error codes of node:http mapped to the status a well-behaved server answers. */
export function clientErrorStatus(code: string | undefined, inRequestLine: boolean): number {
  if (code === 'HPE_HEADER_OVERFLOW') return inRequestLine ? 414 : 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

const MESSAGES: Record<number, string> = {
  400: 'Malformed HTTP request',
  408: 'Request timed out',
  414: `Request target exceeds the limit of ${MAX_URL_BYTES} bytes`,
  431: `Request headers exceed the limit of ${MAX_HEADER_BYTES} bytes`,
};

/**
 * A complete HTTP/1.1 response for a request node:http's parser refused, with the JSON error
 * body; the connection closes after it (the parser cannot resynchronise).
 */
export function clientErrorResponse(status: number, instance: string): string {
  const body = JSON.stringify({ status, message: MESSAGES[status], instance, retryable: status === 408 });
  return (
    `HTTP/1.1 ${status} ${REASONS[status]}\r\n` +
    'content-type: application/json\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    'connection: close\r\n\r\n' +
    body
  );
}
