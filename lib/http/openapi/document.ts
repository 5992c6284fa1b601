/**
 * The OpenAPI 3.1 document of the API, generated from the route table itself (docs/route-contracts.md):
 * every route's method, path, summary, path and query parameters and body come from its declaration,
 * its success answer from `responds` and `returns`, and every failure is the error body. A route
 * cannot exist without its entry. With security on, every route not declared `open` needs the token
 * in X-Authorization (lib/security/api-auth.ts), which Swagger UI's Authorize button then sends, and
 * a role granting its permission (`x-permission`, `x-roles`).
 */
import { rolesGranting } from '../../security/roles.ts';
import type { JsonSchema, ParamsSchema } from '../contract.ts';
import type { RouteDef } from '../router.ts';
import { MODELS, responseSchema } from './models.ts';

export interface DocumentInfo {
  version: string;
  /** service.security.enabled: routes need the token unless declared open. */
  secured: boolean;
}

const ERROR_ANSWER = {
  description: 'The error body',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
};

export function openApiDocument(routes: readonly RouteDef[], info: DocumentInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route, info) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Conductor-compatible workflow orchestration API',
      version: info.version,
      description:
        'Generated from the service route table. Every failure answers the ErrorBody. ' +
        (info.secured
          ? 'Authentication is on: POST /api/token with an application key, then send the token in X-Authorization.'
          : 'Authentication is off: every route is open.'),
    },
    // Relative: the document is right wherever it is served (local server, API Gateway, a proxy).
    servers: [{ url: '/' }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: MODELS,
      ...(info.secured
        ? { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Authorization' } } }
        : {}),
    },
    ...(info.secured ? { security: [{ token: [] }] } : {}),
  };
}

function operation(route: RouteDef, info: DocumentInfo): Record<string, unknown> {
  const contract = route.request ?? {};
  const parameters = [...parametersOf('path', contract.params), ...parametersOf('query', contract.query)];
  const responses: Record<string, unknown> = {
    '2XX': success(route),
    '4XX': ERROR_ANSWER,
    '5XX': ERROR_ANSWER,
  };
  if (info.secured && !route.open) {
    responses['401'] = { ...ERROR_ANSWER, description: 'No valid token' };
    responses['403'] = { ...ERROR_ANSWER, description: 'The caller’s roles do not grant the permission' };
  }
  return {
    operationId: operationId(route),
    summary: route.summary,
    // Who may call it when security is on (lib/security/roles.ts, docs/security.md "Roles").
    ...(route.permission
      ? { 'x-permission': route.permission, 'x-roles': rolesGranting(route.permission) }
      : {}),
    tags: [tagOf(route.path)],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(contract.body
      ? {
          requestBody: {
            required: contract.body.required === true,
            content: {
              'application/json': { schema: { title: contract.body.title, ...contract.body.schema } },
            },
          },
        }
      : {}),
    responses,
    ...(info.secured && route.open ? { security: [] } : {}),
  };
}

function success(route: RouteDef): Record<string, unknown> {
  if (!route.responds) return { description: 'Success' };
  const schema = route.returns
    ? responseSchema(route.returns)
    : route.responds === 'text/plain'
      ? { type: 'string' }
      : {};
  return {
    description: route.returns ? `Success: ${route.returns}` : 'Success',
    content: { [route.responds]: { schema } },
  };
}

function parametersOf(where: 'path' | 'query', schema: ParamsSchema | undefined): JsonSchema[] {
  if (!schema) return [];
  return Object.entries(schema.properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || (schema.required ?? []).includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
      // A list parameter may repeat (`taskType=a&taskType=b`) or be comma-separated.
      ...(property.type === 'array' ? { explode: true } : {}),
    };
  });
}

/** `GET /api/metadata/workflow/{name}` -> `get_api_metadata_workflow_name`: unique per method and path. */
function operationId(route: RouteDef): string {
  const words = route.path
    .replace(/[{}]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [route.method.toLowerCase(), ...words].join('_');
}

/** The group a route is listed under: the segment after /api (`workflow`, `tasks`), or `service`. */
function tagOf(path: string): string {
  const segments = path.split('/').filter(Boolean);
  if (segments[0] !== 'api' || segments.length < 2 || segments[1]?.startsWith('{')) return 'service';
  return segments[1] as string;
}
