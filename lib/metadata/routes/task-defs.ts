/** /api/metadata/taskdefs: task definitions (docs/conductor-compat.md §1.2). */

import { pathParams, stringValue } from '../../http/contract.ts';
import { emptyOk, json } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import type { MetadataService } from '../service.ts';
import { TASK_DEF_BODY, TASK_DEFS_BODY } from './contracts.ts';

const taskTypeParam = pathParams({ taskType: stringValue('The task definition name') });

const register = (metadata: MetadataService) =>
  route({
    method: 'POST',
    path: '/api/metadata/taskdefs',
    permission: 'definitions:manage',
    summary: 'Register task definitions',
    request: { body: TASK_DEFS_BODY },
    handler: async (ctx) => {
      await metadata.registerTaskDefs(await ctx.json());
      return emptyOk();
    },
  });

const update = (metadata: MetadataService) =>
  route({
    method: 'PUT',
    path: '/api/metadata/taskdefs',
    permission: 'definitions:manage',
    summary: 'Replace a task definition',
    request: { body: TASK_DEF_BODY },
    handler: async (ctx) => {
      await metadata.updateTaskDef(await ctx.json());
      return emptyOk();
    },
  });

const list = (metadata: MetadataService) =>
  route({
    method: 'GET',
    path: '/api/metadata/taskdefs',
    permission: 'definitions:read',
    summary: 'List task definitions',
    responds: 'application/json',
    returns: 'TaskDef[]',
    handler: async () => json(await metadata.listTaskDefs()),
  });

const get = (metadata: MetadataService) =>
  route({
    method: 'GET',
    path: '/api/metadata/taskdefs/{taskType}',
    permission: 'definitions:read',
    summary: 'Read a task definition',
    request: { params: taskTypeParam },
    responds: 'application/json',
    returns: 'TaskDef',
    handler: async (ctx) => json(await metadata.getTaskDef(ctx.param('taskType'))),
  });

const remove = (metadata: MetadataService) =>
  route({
    method: 'DELETE',
    path: '/api/metadata/taskdefs/{taskType}',
    permission: 'definitions:manage',
    summary: 'Delete a task definition',
    request: { params: taskTypeParam },
    handler: async (ctx) => {
      await metadata.deleteTaskDef(ctx.param('taskType'));
      return emptyOk();
    },
  });

export function taskDefRoutes(metadata: MetadataService): RouteDef[] {
  return [register(metadata), update(metadata), list(metadata), get(metadata), remove(metadata)];
}
