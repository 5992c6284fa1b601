/** The applications themselves: create, list, read, rename, delete, and find one by a key. */
import { pathParams, stringValue } from '../../http/contract.ts';
import { emptyOk, json } from '../../http/responses.ts';
import { route } from '../../http/router.ts';
import type { ApplicationService } from '../service.ts';
import { APP_PARAMS, APPLICATION_BODY, callerOf } from './contracts.ts';

export const createApplication = (apps: ApplicationService) =>
  route({
    method: 'POST',
    path: '/api/applications',
    summary: 'Create an application (no role, no key yet)',
    permission: 'administration',
    request: { body: APPLICATION_BODY },
    responds: 'application/json',
    returns: 'Application',
    handler: async (ctx) => {
      const { name } = await ctx.checkedBody(APPLICATION_BODY);
      return json(await apps.create(name, callerOf(ctx)));
    },
  });

export const listApplications = (apps: ApplicationService) =>
  route({
    method: 'GET',
    path: '/api/applications',
    summary: 'List every application',
    permission: 'administration',
    responds: 'application/json',
    returns: 'Application[]',
    handler: async () => json(await apps.list()),
  });

export const getApplication = (apps: ApplicationService) =>
  route({
    method: 'GET',
    path: '/api/applications/{id}',
    summary: 'Read an application',
    permission: 'administration',
    request: { params: APP_PARAMS },
    responds: 'application/json',
    returns: 'Application',
    handler: async (ctx) => json(await apps.get(ctx.param('id'))),
  });

export const updateApplication = (apps: ApplicationService) =>
  route({
    method: 'PUT',
    path: '/api/applications/{id}',
    summary: 'Rename an application',
    permission: 'administration',
    request: { params: APP_PARAMS, body: APPLICATION_BODY },
    responds: 'application/json',
    returns: 'Application',
    handler: async (ctx) => {
      const { name } = await ctx.checkedBody(APPLICATION_BODY);
      return json(await apps.rename(ctx.param('id'), name, callerOf(ctx)));
    },
  });

export const deleteApplication = (apps: ApplicationService) =>
  route({
    method: 'DELETE',
    path: '/api/applications/{id}',
    summary: 'Delete an application and its access keys (their tokens stop at once)',
    permission: 'administration',
    request: { params: APP_PARAMS },
    handler: async (ctx) => {
      await apps.delete(ctx.param('id'));
      return emptyOk();
    },
  });

export const applicationByKey = (apps: ApplicationService) =>
  route({
    method: 'GET',
    path: '/api/applications/key/{accessKeyId}',
    summary: 'The application an access key belongs to',
    permission: 'administration',
    request: { params: pathParams({ accessKeyId: stringValue('Access key id') }) },
    responds: 'application/json',
    returns: 'Application',
    handler: async (ctx) => json(await apps.byKey(ctx.param('accessKeyId'))),
  });
