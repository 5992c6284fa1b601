/**
 * An HTTP task's request (docs/conductor-compat.md §5.19) from its input: `http_request`, or the same
 * keys at the top level of the input. Defaults: method GET, accept and contentType
 * `application/json`, connectionTimeOut and readTimeOut 3000 ms.
 */

export interface HttpTaskRequest {
  uri: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  accept: string;
  contentType: string;
  connectionTimeOut: number;
  readTimeOut: number;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);
const DEFAULT_TIMEOUT_MS = 3000;
/** Connect plus read stay within the system-task consumer's 120 s (lib/jobs/system-tasks.ts). */
const MAX_TIMEOUT_MS = 50_000;

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function timeout(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? Math.min(n, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
}

/** The request, or why the input holds none (a terminal configuration error). */
export function httpRequestOf(input: Record<string, unknown>): HttpTaskRequest | string {
  const raw = isMap(input.http_request) ? input.http_request : input;
  const uri = raw.uri;
  if (typeof uri !== 'string' || uri === '')
    return 'Missing HTTP URI. See documentation for HttpTask for required input parameters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `Invalid HTTP URI: ${uri}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `Unsupported URI scheme: ${url.protocol}`;
  const method = (typeof raw.method === 'string' && raw.method !== '' ? raw.method : 'GET').toUpperCase();
  if (!METHODS.has(method)) return `Unsupported HTTP method: ${method}`;
  const headers: Record<string, string> = {};
  if (isMap(raw.headers)) {
    for (const [key, value] of Object.entries(raw.headers)) {
      if (value !== undefined && value !== null)
        headers[key] = Array.isArray(value) ? value.join(',') : String(value);
    }
  }
  const accept = Array.isArray(raw.accept)
    ? raw.accept.join(', ')
    : typeof raw.accept === 'string'
      ? raw.accept
      : 'application/json';
  return {
    uri,
    method,
    headers,
    body: raw.body,
    accept,
    contentType: typeof raw.contentType === 'string' ? raw.contentType : 'application/json',
    connectionTimeOut: timeout(raw.connectionTimeOut),
    readTimeOut: timeout(raw.readTimeOut),
  };
}
