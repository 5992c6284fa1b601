/**
 * The UI's one way to reach the service: same-origin `/api`, typed by api/routes.ts. A failure
 * becomes an ApiError whose message is the server's error body message (`{status, message, ...}`)
 * or a sentence saying the service could not be reached, so pages can show it in words.
 */
import type { PathParams, RouteKey, RouteTypes } from './routes.ts';

export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when the service could not be reached. */
    readonly status: number,
    readonly validationErrors: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Options<K extends RouteKey> = ([RouteTypes[K]['query']] extends [never]
  ? { query?: undefined }
  : { query?: RouteTypes[K]['query'] }) &
  ([RouteTypes[K]['body']] extends [never] ? { body?: undefined } : { body: RouteTypes[K]['body'] }) &
  (keyof PathParams<K> extends never ? { params?: undefined } : { params: PathParams<K> });

/** The URL of a route with its path parameters and query filled in. */
export function urlOf(key: RouteKey, params?: unknown, query?: unknown): string {
  const template = key.slice(key.indexOf(' ') + 1);
  const values = (params ?? {}) as Record<string, string | number>;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${key}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

export async function api<K extends RouteKey>(
  key: K,
  ...[options]: keyof PathParams<K> extends never ? [Options<K>?] : [Options<K>]
): Promise<RouteTypes[K]['response']> {
  const method = key.slice(0, key.indexOf(' '));
  const url = urlOf(key, options?.params, options?.query);
  const init: RequestInit = { method, headers: { accept: 'application/json, text/plain' } };
  if (options?.body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new ApiError(
      `Could not reach the service (${error instanceof Error ? error.message : String(error)})`,
      0,
    );
  }
  const text = await response.text();
  if (!response.ok) throw errorOf(response, text);
  if (text === '') return undefined as RouteTypes[K]['response'];
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('json') ? JSON.parse(text) : text) as RouteTypes[K]['response'];
}

/** The server's error body in words; a body that is not one still gives the status line. */
export function errorOf(response: Pick<Response, 'status' | 'statusText'>, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { message?: unknown; validationErrors?: unknown };
    if (typeof body.message === 'string' && body.message !== '') {
      const details = Array.isArray(body.validationErrors)
        ? (body.validationErrors as { path: string; message: string }[])
        : [];
      return new ApiError(body.message, response.status, details);
    }
  } catch {
    // Not JSON: fall through to the status line.
  }
  return new ApiError(
    `The service answered ${response.status} ${response.statusText}`.trim(),
    response.status,
  );
}

/**
 * A message for any failure, for display, said once: a validation detail the message already
 * states (the service often repeats its message there, give or take a `(position N)`) is left out.
 */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const details = error.validationErrors
      .filter((e) => !error.message.includes(e.message.replace(/\s*\(position \d+\)$/, '')))
      .map((e) => `${e.path}: ${e.message}`);
    return details.length > 0 ? `${error.message} (${details.join('; ')})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
