/**
 * The HTTP core: a router over web Request/Response. Route groups declare routes with `{param}`
 * path segments; static segments win over parameters (`/workflow/names` before `/workflow/{name}`).
 * Path parameters are URL-decoded. Each route carries its request contract (lib/http/contract.ts),
 * compiled when the route is added (or on its first request: RouterOptions.compileContracts) and
 * checked before its handler runs. Hosts (node:http, API Gateway) adapt to and from this.
 */
import type { Logger } from '../log/logger.ts';
import {
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  quote,
  ValidationError,
} from '../model/errors.ts';
import type { ApiAuth } from '../security/api-auth.ts';
import {
  isPermission,
  oneOf,
  type Permission,
  type Principal,
  rolesGrant,
  rolesGranting,
} from '../security/roles.ts';
import { loggableTarget } from './access-log.ts';
import type { BodyContract, PathParams, RequestContract, ResponseType } from './contract.ts';
import {
  type CompiledContract,
  checkBody,
  checkParams,
  coerceValues,
  compileContract,
} from './contract-validation.ts';
import { errorResponse } from './error-response.ts';
import type { ResponseModel } from './openapi/models.ts';
import { bodyStream, parseJsonBody, QueryParams, bodyText as readBody } from './request.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RouteContext<Param extends string = string> {
  readonly request: Request;
  readonly url: URL;
  readonly params: Readonly<Record<string, string>>;
  /** A path parameter of this route (the names come from the path literal). */
  param(name: Param): string;
  /** Query values; declared integers and booleans arrive converted and checked. */
  readonly query: QueryParams;
  /**
   * The body parsed as JSON; undefined when empty. Malformed JSON throws a 400. When the route
   * declares a body contract, the value has passed it.
   */
  json(): Promise<unknown>;
  /**
   * The body of a route declaring this body contract, already checked against its schema, with the
   * type derived from that schema: handlers read it without checking it again.
   */
  checkedBody<T>(contract: BodyContract<T>): Promise<T>;
  /**
   * The body as text. Handlers read bodies only through text() and json(): a host may hand a
   * textual body over as a string without giving the Request a body stream.
   */
  text(): Promise<string>;
  /** The body as a stream, for routes declaring `rawBody` (uploads): read once, as it arrives. */
  body(): AsyncIterable<Uint8Array>;
  /**
   * Who is calling (the key of the token, with its roles now), on a route that is not open while
   * service.security.enabled is on; undefined with security off, where nobody is checked.
   */
  readonly principal?: Principal;
}

export type RouteHandler<Param extends string = string> = (
  ctx: RouteContext<Param>,
) => Promise<Response> | Response;

/**
 * A credential of a route's own that admits a request whatever its roles (the scheduler admin
 * routes' `service.scheduler.admin.token`): the router lets such a request through to the handler.
 */
export interface RouteCredential {
  /** What it is, as a refusal names it: `service.scheduler.admin.token in Authorization: Bearer`. */
  readonly what: string;
  admits(request: Request): boolean;
}

/**
 * Who may call a route: nobody is asked for a token on an `open` one (health, version, token, the
 * API document); any other declares the one permission it needs (lib/security/roles.ts), which the
 * router checks against the caller's roles before the contract when security is on.
 */
export type RouteAccess =
  | {
      /** Needs no token even with `service.security.enabled` (health, version, token, API document). */
      open: true;
      permission?: never;
      admits?: never;
    }
  | {
      open?: false;
      /** What the caller's roles must grant (docs/security.md "Roles"). */
      permission: Permission;
      /** Also let through a request carrying this credential, whatever its roles. */
      admits?: RouteCredential;
    };

export type RouteDef<Path extends string = string> = RouteShape<Path> & RouteAccess;

interface RouteShape<Path extends string> {
  method: HttpMethod;
  /** e.g. `/api/metadata/workflow/{name}/{version}` */
  path: Path;
  /** One line saying what the route does (the OpenAPI summary). */
  summary: string;
  request?: RequestContract;
  /** Content type of a successful answer with a body. */
  responds?: ResponseType;
  /**
   * The body is raw bytes the handler streams to their destination (ctx.body()): hosts hand it over
   * unread and do not apply service.server.max-body-bytes; the handler enforces its own limit.
   */
  rawBody?: boolean;
  /** The model a successful answer holds, for the OpenAPI document (lib/http/openapi/models.ts). */
  returns?: ResponseModel;
  handler: RouteHandler<PathParams<Path>>;
}

/** Declares a route; the handler's `ctx.param()` accepts exactly the path's `{param}` names. */
export function route<const Path extends string>(def: RouteDef<Path>): RouteDef {
  // The router's context answers any name; the handler's narrower type only limits what it asks.
  const handler: RouteHandler = (ctx) => def.handler(ctx);
  return { ...def, handler } as RouteDef;
}

interface Endpoint {
  route: RouteDef;
  /** Compiled when the route is added, or on its first request (RouterOptions.compileContracts). */
  contract?: CompiledContract;
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
  /** Deepest JSON nesting of a body (service.server.max-json-depth); DEFAULT_MAX_JSON_DEPTH when absent. */
  maxJsonDepth?: number;
  /** Checks the token of every route not declared `open` (lib/security/api-auth.ts); none: all open. */
  auth?: ApiAuth;
  /**
   * When a route's contract is compiled: `when-added` (the default: a schema that is not valid
   * JSON Schema stops the start), or `when-first-used`, on the route's first request (a Lambda
   * function answers most requests with a few of its routes, and compiling every one would be most
   * of its cold start; the local host and the tests, which compile every route, catch a broken
   * schema).
   */
  compileContracts?: 'when-added' | 'when-first-used';
}

/**
 * Most values a list in a query or a list body may hold unless its schema says otherwise
 * (`maxItems`): the work of one request stays bounded (docs/api.md "Limits").
 */
export const MAX_LIST_ITEMS = 1000;

export class Router {
  private readonly root = newNode();
  private readonly all: RouteDef[] = [];

  constructor(private readonly options: RouterOptions) {}

  add(route: RouteDef): this {
    // The type requires it; a route built around the type (a cast, plain JavaScript) stops here.
    if (route.open !== true && !isPermission(route.permission)) {
      throw new Error(`Route ${route.method} ${route.path} is neither open nor declares a permission`);
    }
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
    const contract =
      this.options.compileContracts === 'when-first-used' ? undefined : compileContract(route.request);
    node.handlers.set(route.method, { route, contract, paramNames });
    this.all.push(route);
    return this;
  }

  /** Every route added, in order (the route table the fuzz suite and the OpenAPI document walk). */
  routes(): readonly RouteDef[] {
    return this.all;
  }

  /**
   * Whether a path is the API's to answer, whatever the method: a route's template matches it, or
   * it lies under the first segment of a route (`/api/...`, `/health`, `/api-docs/...`,
   * `/swagger-ui/...`), where the router answers even a path it has no route for (with its 404 error
   * body). What else serves paths beside the router (the local host's UI) asks this, so it never
   * shadows a route, templated ones included. `pathname` is the decoded path.
   */
  claims(pathname: string): boolean {
    const segments = splitPath(pathname);
    const first = segments[0];
    if (first === undefined) return this.root.handlers.size > 0;
    if (this.root.statics.has(first)) return true;
    return match(this.root, segments, 0, [], undefined) !== undefined;
  }

  addAll(routes: Iterable<RouteDef>): this {
    for (const route of routes) this.add(route);
    return this;
  }

  /** Whether the route a request would reach takes its body as a stream (RouteDef.rawBody). */
  takesRawBody(method: string, url: string): boolean {
    try {
      const segments = splitPath(new URL(url).pathname).map(decodeSegment);
      const found = match(this.root, segments, 0, [], method);
      return found?.node.handlers.get(method)?.route.rawBody === true;
    } catch {
      return false;
    }
  }

  /** Answers a request. Never throws: every failure becomes an error response. */
  async handle(request: Request): Promise<Response> {
    // What an error names: the path once parsed, else the target (built only when needed).
    let pathname: string | undefined;
    try {
      const url = parseUrl(request.url);
      pathname = url.pathname;
      const segments = splitPath(url.pathname).map(decodeSegment);
      const found = match(this.root, segments, 0, [], request.method);
      if (!found) {
        if (match(this.root, segments, 0, [], undefined)) {
          throw new MethodNotAllowedError(
            `Method ${quote(request.method)} is not supported on ${quote(url.pathname)}`,
          );
        }
        throw new NotFoundError(`No route for ${where(request, pathname)}`);
      }
      const endpoint = found.node.handlers.get(request.method) as Endpoint;
      endpoint.contract ??= compileContract(endpoint.route.request);
      const { contract } = endpoint;
      const params: Record<string, string> = {};
      for (let i = 0; i < endpoint.paramNames.length; i++) {
        params[endpoint.paramNames[i] as string] = found.values[i] as string;
      }
      let principal: Principal | undefined;
      if (!endpoint.route.open) {
        principal = await this.options.auth?.authenticate(request);
        if (principal) authorize(endpoint.route, principal, request, pathname);
      }
      checkPath(endpoint, contract, params);
      const ctx = new Context(
        request,
        url,
        params,
        checkedQuery(endpoint, contract, url.searchParams),
        principal,
        endpoint.route,
        this.options.maxJsonDepth,
      );
      const declared = endpoint.route.request?.body;
      if (declared && contract.body) checkBody(declared, contract.body, await ctx.json());
      return await endpoint.route.handler(ctx);
    } catch (error) {
      return errorResponse(error, this.options.instance, this.options.logger, where(request, pathname));
    }
  }
}

/** What an error names: the method and the path once parsed, else the request's target. */
const where = (request: Request, pathname: string | undefined): string =>
  `${request.method} ${quote(pathname ?? loggableTarget(request.url))}`;

/**
 * A handler's view of its request. A class, not an object of closures: one is built for every
 * request, and its methods are shared.
 */
class Context implements RouteContext {
  /** Read once: the router's check and the handler read the same text and the same parsed value. */
  private bodyText: Promise<string> | undefined;
  private parsed: Promise<unknown> | undefined;

  constructor(
    readonly request: Request,
    readonly url: URL,
    readonly params: Record<string, string>,
    readonly query: QueryParams,
    readonly principal: Principal | undefined,
    private readonly route: RouteDef,
    private readonly maxJsonDepth: number | undefined,
  ) {}

  param(name: string): string {
    const value = this.params[name];
    if (value === undefined) throw new Error(`Route ${this.route.path} has no parameter ${name}`);
    return value;
  }

  text(): Promise<string> {
    this.bodyText ??= readBody(this.request);
    return this.bodyText;
  }

  body(): AsyncIterable<Uint8Array> {
    return bodyStream(this.request);
  }

  json(): Promise<unknown> {
    this.parsed ??= this.text().then((text) =>
      boundedList(parseJsonBody(text, this.maxJsonDepth), this.route.request?.body),
    );
    return this.parsed;
  }

  async checkedBody<T>(contract: BodyContract<T>): Promise<T> {
    if (contract !== this.route.request?.body) {
      throw new Error(`Route ${this.route.path} does not declare the body ${contract.title}`);
    }
    return (await this.json()) as T;
  }
}

/**
 * Passes a caller whose roles grant the route's permission, or who carries the route's own
 * credential; refuses anyone else with 403, naming the roles that would do.
 */
function authorize(route: RouteDef, principal: Principal, request: Request, pathname: string): void {
  const permission = route.permission as Permission;
  if (rolesGrant(principal.roles, permission)) return;
  if (route.admits?.admits(request)) return;
  const held = principal.roles.length > 0 ? `has ${principal.roles.join(', ')}` : 'has no role';
  const or = route.admits ? ` (or ${route.admits.what})` : '';
  throw new ForbiddenError(
    `${where(request, pathname)} needs the role ${oneOf(rolesGranting(permission))}${or}, for the permission ` +
      `'${permission}'; the key ${quote(principal.keyId)} ${held}`,
  );
}

/** A list body longer than its schema's `maxItems` (MAX_LIST_ITEMS when it declares none) is a 400. */
function boundedList(body: unknown, contract: BodyContract | undefined): unknown {
  if (!Array.isArray(body)) return body;
  const max = Number(contract?.schema.maxItems ?? MAX_LIST_ITEMS);
  if (body.length > max) {
    const what = contract ? `: ${contract.title}` : '';
    throw new ValidationError(`Request body holds more than the limit of ${max} items${what}`, [
      { path: 'body', message: `must hold at most ${max} items` },
    ]);
  }
  return body;
}

function checkPath(endpoint: Endpoint, contract: CompiledContract, params: Record<string, string>): void {
  const schema = endpoint.route.request?.params;
  if (!schema || !contract.params) return;
  checkParams('path', schema, contract.params, coerceValues(schema, params), params);
}

/** Query values as declared: first non-empty value, lists split, integers and booleans converted. */
function checkedQuery(endpoint: Endpoint, contract: CompiledContract, search: URLSearchParams): QueryParams {
  const schema = endpoint.route.request?.query;
  const query = new QueryParams(search);
  if (!schema || !contract.query) return query;
  const raw: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = property.type === 'array' ? query.list(name) : query.string(name);
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) raw[name] = value;
  }
  for (const [name, value] of Object.entries(raw)) {
    const max = Number(schema.properties[name]?.maxItems ?? MAX_LIST_ITEMS);
    if (Array.isArray(value) && value.length > max) {
      throw new ValidationError(`Query parameter '${name}' holds more than the limit of ${max} values`, [
        { path: name, message: `must hold at most ${max} values` },
      ]);
    }
  }
  const values = coerceValues(schema, raw);
  checkParams('query', schema, contract.query, values, raw);
  return new QueryParams(search, values);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ValidationError(`Malformed percent-encoding in path segment '${quote(segment)}'`);
  }
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ValidationError(`Malformed request target '${quote(raw)}'`);
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
