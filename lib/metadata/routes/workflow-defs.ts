/**
 * /api/metadata/workflow: workflow definitions (docs/conductor-compat.md §1.2), plus the listing
 * parameters the official UI sends (docs/conductor-compat.md §1.2).
 */

import { booleanValue, integerValue, paramsOf, pathParams, stringValue } from '../../http/contract.ts';
import { emptyOk, json } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import type { MetadataService } from '../service.ts';
import { WORKFLOW_DEF_BODY, WORKFLOW_DEFS_BODY } from './contracts.ts';

const nameParam = { name: stringValue('The workflow name') };

const register = (metadata: MetadataService) =>
  route({
    method: 'POST',
    path: '/api/metadata/workflow',
    permission: 'definitions:manage',
    summary: 'Register a workflow definition (409 when the version exists, unless overwrite)',
    request: {
      query: paramsOf({ overwrite: booleanValue('Replace an existing version (default false)') }),
      body: WORKFLOW_DEF_BODY,
    },
    handler: async (ctx) => {
      await metadata.registerWorkflowDef(await ctx.json(), ctx.query.bool('overwrite', false));
      return emptyOk();
    },
  });

const upsert = (metadata: MetadataService) =>
  route({
    method: 'PUT',
    path: '/api/metadata/workflow',
    permission: 'definitions:manage',
    summary: 'Create or replace workflow definitions (newVersion: store each as its next version)',
    request: {
      query: paramsOf({
        newVersion: booleanValue(
          'Store each definition as the version after the highest stored (default false: as the version it names, replacing it)',
        ),
      }),
      body: WORKFLOW_DEFS_BODY,
    },
    responds: 'application/json',
    handler: async (ctx) =>
      json(
        await metadata.upsertWorkflowDefs(await ctx.json(), {
          newVersion: ctx.query.bool('newVersion', false),
        }),
      ),
  });

const validate = (metadata: MetadataService) =>
  route({
    method: 'POST',
    path: '/api/metadata/workflow/validate',
    permission: 'definitions:read',
    summary: 'Check a workflow definition without storing it',
    request: { body: WORKFLOW_DEF_BODY },
    handler: async (ctx) => {
      await metadata.validateWorkflowDef(await ctx.json());
      return emptyOk();
    },
  });

const list = (metadata: MetadataService) =>
  route({
    method: 'GET',
    path: '/api/metadata/workflow',
    permission: 'definitions:read',
    summary: 'List workflow definitions',
    request: {
      query: paramsOf({
        name: stringValue('Only this name'),
        classifier: stringValue('Only definitions with this classifier'),
        short: booleanValue('Leave out the tasks (default false)'),
      }),
    },
    responds: 'application/json',
    returns: 'WorkflowDef[]',
    handler: async (ctx) =>
      json(
        await metadata.listWorkflowDefs({
          name: ctx.query.string('name'),
          classifier: ctx.query.string('classifier'),
          short: ctx.query.bool('short', false),
        }),
      ),
  });

const latestVersions = (metadata: MetadataService) =>
  route({
    method: 'GET',
    path: '/api/metadata/workflow/latest-versions',
    permission: 'definitions:read',
    summary: 'The latest version of every workflow definition',
    responds: 'application/json',
    handler: async () => json(await metadata.listWorkflowDefs({ latestOnly: true })),
  });

const namesAndVersions = (metadata: MetadataService) =>
  route({
    method: 'GET',
    path: '/api/metadata/workflow/names-and-versions',
    permission: 'definitions:read',
    summary: 'Every workflow name with its versions',
    responds: 'application/json',
    handler: async () => json(await metadata.namesAndVersions()),
  });

const names = (metadata: MetadataService) =>
  route({
    method: 'GET',
    path: '/api/metadata/workflow/names',
    permission: 'definitions:read',
    summary: 'Every workflow name',
    responds: 'application/json',
    handler: async () => json(Object.keys(await metadata.namesAndVersions())),
  });

const get = (metadata: MetadataService) =>
  route({
    method: 'GET',
    path: '/api/metadata/workflow/{name}',
    permission: 'definitions:read',
    summary: 'Read a workflow definition (the latest version unless one is given)',
    request: {
      params: pathParams(nameParam),
      query: paramsOf({ version: integerValue({ minimum: 1 }, 'The version') }),
    },
    responds: 'application/json',
    returns: 'WorkflowDef',
    handler: async (ctx) =>
      json(await metadata.getWorkflowDef(ctx.param('name'), ctx.query.optionalInt('version'))),
  });

const versions = (metadata: MetadataService) =>
  route({
    method: 'GET',
    path: '/api/metadata/workflow/{name}/versions',
    permission: 'definitions:read',
    summary: 'Every version of a workflow definition',
    request: { params: pathParams(nameParam) },
    responds: 'application/json',
    handler: async (ctx) => json(await metadata.workflowVersions(ctx.param('name'))),
  });

const remove = (metadata: MetadataService) =>
  route({
    method: 'DELETE',
    path: '/api/metadata/workflow/{name}/{version}',
    permission: 'definitions:manage',
    summary: 'Delete one version of a workflow definition',
    request: {
      params: pathParams({
        ...nameParam,
        version: { type: 'string', pattern: '^\\d+$', description: 'a positive integer' },
      }),
    },
    handler: async (ctx) => {
      await metadata.deleteWorkflowDef(ctx.param('name'), Number(ctx.param('version')));
      return emptyOk();
    },
  });

export function workflowDefRoutes(metadata: MetadataService): RouteDef[] {
  return [
    register(metadata),
    upsert(metadata),
    validate(metadata),
    list(metadata),
    latestVersions(metadata),
    namesAndVersions(metadata),
    names(metadata),
    get(metadata),
    versions(metadata),
    remove(metadata),
  ];
}
