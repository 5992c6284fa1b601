/**
 * The HTTP core: a router over web Request/Response. Route groups declare routes with `{param}`
 * path segments; static segments win over parameters (`/workflow/names` before `/workflow/{name}`).
 * Path parameters are URL-decoded. Hosts (node:http, API Gateway) adapt to and from this.
 */
import type { Logger } from '../log/logger.ts';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../model/errors.ts';
import { errorResponse } from './error-response.ts';
import { parseJsonBody, QueryParams, bodyText as readBody } from './request.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RouteContext {
  readonly request: Request;
  readonly url: URL;
  readonly params: Readonly<Record<string, string>>;
  readonly query: QueryParams;
  /** The body parsed as JSON; undefined when empty. Malformed JSON throws a 400. */
  json(): Promise<unknown>;
  /**
   * The body as text. Handlers read bodies only through text() and json(): a host may hand a
   * textual body over as a string without giving the Request a body stream.
   */
  text(): Promise<string>;
}

export type RouteHandler = (ctx: RouteContext) => Promise<Response> | Response;

export interface RouteDef {
  method: HttpMethod;
  /** e.g. `/api/metadata/workflow/{name}/{version}` */
  path: string;
  handler: RouteHandler;
}

interface Endpoint {
  handler: RouteHandler;
  /** Parameter names in path order; routes sharing a node may name the same position differently. */
  paramNames: string[];
}

interface Node {
  statics: Map<string, Node>;
  param?: Node;
  handlers: Map<string, Endpoint>;
}

const newNode = (): Node => ({ statics: new Map(), handlers: new Map() });

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

export interface RouterOptions {
  logger: Logger;
  /** Identifies this server in error bodies (`instance`). */
  instance: string;
}

export class Router {
  private readonly root = newNode();

  constructor(private readonly options: RouterOptions) {}

  add(route: RouteDef): this {
    let node = this.root;
    const paramNames: string[] = [];
    for (const segment of splitPath(route.path)) {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param?.[1]) {
        paramNames.push(param[1]);
        node.param ??= newNode();
        node = node.param;
      } else {
        let next = node.statics.get(segment);
        if (!next) {
          next = newNode();
          node.statics.set(segment, next);
        }
        node = next;
      }
    }
    if (node.handlers.has(route.method)) throw new Error(`Duplicate route ${route.method} ${route.path}`);
    node.handlers.set(route.method, { handler: route.handler, paramNames });
    return this;
  }

  addAll(routes: Iterable<RouteDef>): this {
    for (const route of routes) this.add(route);
    return this;
  }

  /** Answers a request. Never throws: every failure becomes an error response. */
  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const where = `${request.method} ${url.pathname}`;
    try {
      const segments = splitPath(url.pathname).map(decodeSegment);
      const found = match(this.root, segments, 0, [], request.method);
      if (!found) {
        if (match(this.root, segments, 0, [], undefined)) {
          throw new MethodNotAllowedError(`Method ${request.method} is not supported on ${url.pathname}`);
        }
        throw new NotFoundError(`No route for ${where}`);
      }
      const endpoint = found.node.handlers.get(request.method) as Endpoint;
      const params: Record<string, string> = {};
      endpoint.paramNames.forEach((name, i) => {
        params[name] = found.values[i] as string;
      });
      let bodyText: Promise<string> | undefined;
      const readText = () => {
        bodyText ??= readBody(request);
        return bodyText;
      };
      const ctx: RouteContext = {
        request,
        url,
        params,
        query: new QueryParams(url.searchParams),
        text: readText,
        json: async () => parseJsonBody(await readText()),
      };
      return await endpoint.handler(ctx);
    } catch (error) {
      return errorResponse(error, this.options.instance, this.options.logger, where);
    }
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ValidationError(`Malformed percent-encoding in path segment '${segment}'`);
  }
}

/**
 * Depth-first match preferring static segments; backtracks to a parameter when a static branch
 * dead-ends or lacks the method. With no method, finds any route on the path (for 405 answers).
 */
function match(
  node: Node,
  segments: string[],
  index: number,
  values: string[],
  method: string | undefined,
): { node: Node; values: string[] } | undefined {
  if (index === segments.length) {
    const ok = method === undefined ? node.handlers.size > 0 : node.handlers.has(method);
    return ok ? { node, values } : undefined;
  }
  const segment = segments[index] as string;
  const staticNext = node.statics.get(segment);
  if (staticNext) {
    const found = match(staticNext, segments, index + 1, values, method);
    if (found) return found;
  }
  if (node.param) return match(node.param, segments, index + 1, [...values, segment], method);
  return undefined;
}
