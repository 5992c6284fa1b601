/**
 * The API routes the UI calls, keyed `METHOD path` exactly as the server declares them with
 * `route({...})` (lib/http/router.ts); a unit test (test/ui/logic/api-routes.test.ts) checks that
 * every key here is a registered route, so a renamed server route breaks the build, not the page.
 * Response and body types come from the server's own model.
 */
import type { TaskDef, WorkflowDef } from '../../../lib/model/definitions.ts';
import type { SchemaInput, SchemaRecord } from '../../../lib/schemas/model.ts';

export type { SchemaInput, SchemaRecord, TaskDef, WorkflowDef };

export const API_ROUTES = [
  'GET /api/schema',
  'GET /api/schema/{name}',
  'GET /api/schema/{name}/{version}',
  'POST /api/schema',
  'DELETE /api/schema/{name}',
  'DELETE /api/schema/{name}/{version}',
  'GET /api/metadata/workflow',
  'GET /api/metadata/workflow/{name}',
  'POST /api/metadata/workflow',
  'PUT /api/metadata/workflow',
  'DELETE /api/metadata/workflow/{name}/{version}',
  'GET /api/metadata/taskdefs',
  'GET /api/metadata/taskdefs/{taskType}',
  'POST /api/metadata/taskdefs',
  'PUT /api/metadata/taskdefs',
  'DELETE /api/metadata/taskdefs/{taskType}',
  'GET /api/version',
] as const;

export type RouteKey = (typeof API_ROUTES)[number];

type Bool = boolean | undefined;

/** Per route: the query it takes, the body it sends and what it answers. */
export interface RouteTypes {
  'GET /api/schema': { query: { short?: Bool }; body: never; response: SchemaRecord[] };
  'GET /api/schema/{name}': { query: never; body: never; response: SchemaRecord };
  'GET /api/schema/{name}/{version}': { query: never; body: never; response: SchemaRecord };
  'POST /api/schema': {
    query: { newVersion?: Bool };
    body: SchemaInput | SchemaInput[];
    response: undefined;
  };
  'DELETE /api/schema/{name}': { query: never; body: never; response: undefined };
  'DELETE /api/schema/{name}/{version}': { query: never; body: never; response: undefined };
  'GET /api/metadata/workflow': {
    query: { short?: Bool; name?: string };
    body: never;
    response: WorkflowDef[];
  };
  'GET /api/metadata/workflow/{name}': { query: { version?: number }; body: never; response: WorkflowDef };
  'POST /api/metadata/workflow': { query: { overwrite?: Bool }; body: WorkflowDef; response: undefined };
  'PUT /api/metadata/workflow': { query: never; body: WorkflowDef[]; response: unknown };
  'DELETE /api/metadata/workflow/{name}/{version}': { query: never; body: never; response: undefined };
  'GET /api/metadata/taskdefs': { query: never; body: never; response: TaskDef[] };
  'GET /api/metadata/taskdefs/{taskType}': { query: never; body: never; response: TaskDef };
  'POST /api/metadata/taskdefs': { query: never; body: TaskDef[]; response: unknown };
  'PUT /api/metadata/taskdefs': { query: never; body: TaskDef; response: unknown };
  'DELETE /api/metadata/taskdefs/{taskType}': { query: never; body: never; response: undefined };
  'GET /api/version': { query: never; body: never; response: string };
}

/** `{name}` segments of a path literal, as the values to put in them. */
export type PathParams<K extends string> = K extends `${string}{${infer P}}${infer Rest}`
  ? { [key in P]: string | number } & PathParams<Rest>
  : unknown;
