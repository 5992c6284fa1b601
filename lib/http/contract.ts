/**
 * What a route declares about itself besides its handler: a one-line summary and its request
 * contract (path parameters, query and body as JSON Schema, draft-07). The router validates every
 * request against it before the handler runs; the same data will feed the OpenAPI document, so it
 * stays plain JSON that a walker can read (docs/route-contracts.md).
 */

import type { BodySchema, JsonSchema } from '../validation/body-schema.ts';

export type { JsonSchema };

/** The schema of a flat set of named values: path parameters or query parameters. */
export interface ParamsSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
}

/**
 * A body's schema (lib/validation/body-schema.ts: its title names it in error messages, its type
 * is derived from the schema) and whether the route needs one.
 */
export interface BodyContract<T = unknown> extends BodySchema<T> {
  /** An absent (empty) body is a 400; otherwise it is handed to the handler as undefined. */
  readonly required?: boolean;
}

export interface RequestContract {
  readonly params?: ParamsSchema;
  readonly query?: ParamsSchema;
  readonly body?: BodyContract;
}

/** Content type of a successful answer with a body (OpenAPI's response content). */
export type ResponseType = 'application/json' | 'text/plain';

/** The names of the `{param}` segments of a path literal; any name for a plain `string` path. */
export type PathParams<Path extends string> = string extends Path
  ? string
  : Path extends `${string}{${infer Name}}${infer Rest}`
    ? Name | PathParams<Rest>
    : never;

// Small builders for the schemas routes repeat. Query and path values arrive as strings; the
// router turns declared integers and booleans into numbers and booleans before validating.

export const stringValue = (description?: string): JsonSchema => ({
  type: 'string',
  ...(description ? { description } : {}),
});

export const integerValue = (bounds: { minimum?: number; maximum?: number } = {}, description?: string) => ({
  type: 'integer',
  ...bounds,
  ...(description ? { description } : {}),
});

export const booleanValue = (description?: string): JsonSchema => ({
  type: 'boolean',
  ...(description ? { description } : {}),
});

/** A repeatable query parameter; comma-separated values are split too. */
export const stringList = (description?: string): JsonSchema => ({
  type: 'array',
  items: { type: 'string' },
  ...(description ? { description } : {}),
});

export function paramsOf(properties: Record<string, JsonSchema>, required: string[] = []): ParamsSchema {
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

/** Path parameters: every `{name}` segment is a required, non-empty string unless said otherwise. */
export function pathParams(properties: Record<string, JsonSchema>): ParamsSchema {
  return paramsOf(properties, Object.keys(properties));
}

/** A JSON object body; its properties are documented and, where given, validated. */
export const objectBody = (description: string, properties: Record<string, JsonSchema> = {}) => ({
  type: 'object',
  description,
  ...(Object.keys(properties).length > 0 ? { properties } : {}),
});
