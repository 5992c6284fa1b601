/** /api/schema: the schema registry's six routes (docs/api.md "Schema registry"). */
import { booleanValue, type JsonSchema, paramsOf, pathParams, stringValue } from '../http/contract.ts';
import { emptyOk, json } from '../http/responses.ts';
import { type RouteDef, route } from '../http/router.ts';
import type { SchemaService } from './service.ts';

const nameParam = { name: stringValue('The schema name') };
const versionParam: JsonSchema = {
  type: 'string',
  pattern: '^[1-9]\\d{0,9}$',
  description: 'a positive integer',
};

const save = (schemas: SchemaService) =>
  route({
    method: 'POST',
    path: '/api/schema',
    permission: 'definitions:manage',
    summary: 'Register schemas (one record or an array), in place or at a new version',
    request: {
      query: paramsOf({
        newVersion: booleanValue('Store each at the highest registered version plus one (default false)'),
      }),
      body: {
        title: 'SchemaDef',
        schema: {
          description:
            'A schema record {name, version?, type: JSON|AVRO|PROTOBUF, data?, externalRef?} or an array of them, checked by lib/schemas',
        },
        required: true,
      },
    },
    handler: async (ctx) => {
      await schemas.save(await ctx.json(), ctx.query.bool('newVersion', false));
      return emptyOk();
    },
  });

const list = (schemas: SchemaService) =>
  route({
    method: 'GET',
    path: '/api/schema',
    permission: 'definitions:read',
    summary: 'List every version of every schema',
    request: { query: paramsOf({ short: booleanValue('Only name and version, no body (default false)') }) },
    responds: 'application/json',
    handler: async (ctx) => json(await schemas.list(ctx.query.bool('short', false))),
  });

const latest = (schemas: SchemaService) =>
  route({
    method: 'GET',
    path: '/api/schema/{name}',
    permission: 'definitions:read',
    summary: 'Read the highest version of a schema',
    request: { params: pathParams(nameParam) },
    responds: 'application/json',
    handler: async (ctx) => json(await schemas.get(ctx.param('name'))),
  });

const one = (schemas: SchemaService) =>
  route({
    method: 'GET',
    path: '/api/schema/{name}/{version}',
    permission: 'definitions:read',
    summary: 'Read one version of a schema',
    request: { params: pathParams({ ...nameParam, version: versionParam }) },
    responds: 'application/json',
    handler: async (ctx) => json(await schemas.get(ctx.param('name'), Number(ctx.param('version')))),
  });

const removeAll = (schemas: SchemaService) =>
  route({
    method: 'DELETE',
    path: '/api/schema/{name}',
    permission: 'definitions:manage',
    summary: 'Delete every version of a schema',
    request: { params: pathParams(nameParam) },
    handler: async (ctx) => {
      await schemas.delete(ctx.param('name'));
      return emptyOk();
    },
  });

const removeOne = (schemas: SchemaService) =>
  route({
    method: 'DELETE',
    path: '/api/schema/{name}/{version}',
    permission: 'definitions:manage',
    summary: 'Delete one version of a schema',
    request: { params: pathParams({ ...nameParam, version: versionParam }) },
    handler: async (ctx) => {
      await schemas.delete(ctx.param('name'), Number(ctx.param('version')));
      return emptyOk();
    },
  });

export function schemaRoutes(schemas: SchemaService): RouteDef[] {
  return [
    save(schemas),
    list(schemas),
    latest(schemas),
    one(schemas),
    removeAll(schemas),
    removeOne(schemas),
  ];
}
