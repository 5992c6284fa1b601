/**
 * Reading what a client sent: query parameters (an empty value counts as absent) and JSON bodies
 * (malformed JSON is a 400, never a 500 or 415).
 */
import { quote, ValidationError } from '../model/errors.ts';
import { nestsDeeperThan } from './json-depth.ts';

/**
 * The body text of a request whose host already holds it as a string (node:http reads it whole
 * before routing): the router uses it instead of reading the body stream again.
 */
const knownText = new WeakMap<Request, string>();

export function withKnownText(request: Request, text: string): Request {
  knownText.set(request, text);
  return request;
}

/**
 * The body of a request whose host hands it over unread, as a stream (routes declaring `rawBody`:
 * uploads of any size go to their destination without being held in memory).
 */
const knownStream = new WeakMap<Request, AsyncIterable<Uint8Array>>();

export function withBodyStream(request: Request, body: AsyncIterable<Uint8Array>): Request {
  knownStream.set(request, body);
  return request;
}

/** The body as a stream of chunks, however the host delivered it. */
export function bodyStream(request: Request): AsyncIterable<Uint8Array> {
  const stream = knownStream.get(request);
  if (stream) return stream;
  const text = knownText.get(request);
  if (text !== undefined) return chunksOf(Buffer.from(text, 'utf8'));
  return request.body ?? chunksOf(new Uint8Array());
}

async function* chunksOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  if (bytes.length > 0) yield bytes;
}

export function bodyText(request: Request): Promise<string> {
  const text = knownText.get(request);
  return text !== undefined ? Promise.resolve(text) : request.text();
}

/**
 * The query of a request. Values a route declares in its contract were checked and converted by
 * the router (lib/http/contract-validation.ts); int() and bool() read those, so a handler never
 * parses a number itself. Reading an undeclared typed value is a programming error.
 */
export class QueryParams {
  constructor(
    private readonly params: URLSearchParams,
    private readonly checked: Readonly<Record<string, unknown>> = {},
  ) {}

  /** The first non-empty value of a parameter, or undefined (`sort=` is absent). */
  string(name: string): string | undefined {
    for (const value of this.params.getAll(name)) if (value !== '') return value;
    return undefined;
  }

  /** A parameter the route's contract lists as required. */
  required(name: string): string {
    const value = this.checked[name];
    if (typeof value !== 'string') throw new Error(`Query parameter ${name} is not declared required`);
    return value;
  }

  /** Every non-empty value of a repeatable parameter; comma-separated values are split too. */
  list(name: string): string[] {
    return this.params
      .getAll(name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  }

  bool(name: string, fallback: boolean): boolean {
    return this.typed(name, 'boolean') ?? fallback;
  }

  int(name: string, fallback: number): number {
    return this.optionalInt(name) ?? fallback;
  }

  optionalInt(name: string): number | undefined {
    return this.typed(name, 'number');
  }

  private typed<T extends 'number' | 'boolean'>(
    name: string,
    type: T,
  ): (T extends 'number' ? number : boolean) | undefined {
    if (this.string(name) === undefined) return undefined;
    const value = this.checked[name];
    if (typeof value !== type) throw new Error(`Query parameter ${name} is not declared as a ${type}`);
    return value as T extends 'number' ? number : boolean;
  }
}

/** Deepest JSON nesting a body may have unless the host configures otherwise. */
export const DEFAULT_MAX_JSON_DEPTH = 100;

/**
 * Parses a request body as JSON. An empty body is undefined, letting the route decide if it is
 * required. Nesting deeper than `maxDepth` is a 400 before the body is parsed: every later step
 * (validation, storing, serialising the answer) may recurse.
 */
export function parseJsonBody(raw: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): unknown {
  if (raw.trim() === '') return undefined;
  if (nestsDeeperThan(raw, maxDepth)) {
    throw new ValidationError(`Request body nests deeper than the limit of ${maxDepth} levels`, [
      { path: 'body', message: `must not nest deeper than ${maxDepth} levels` },
    ]);
  }
  try {
    return JSON.parse(raw);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ValidationError(`Malformed JSON in request body: ${quote(detail)}`);
  }
}
