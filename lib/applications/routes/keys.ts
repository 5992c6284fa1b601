/**
 * An application's access keys: create (the one answer holding the secret), list, toggle between
 * ACTIVE and INACTIVE, delete. A key made INACTIVE or deleted gets no token and its tokens stop.
 */
import { emptyOk, json } from '../../http/responses.ts';
import { route } from '../../http/router.ts';
import type { ApplicationService } from '../service.ts';
import { APP_KEY_PARAMS, APP_PARAMS, callerOf } from './contracts.ts';

export const createAccessKey = (apps: ApplicationService) =>
  route({
    method: 'POST',
    path: '/api/applications/{id}/accessKeys',
    summary: 'Create an access key: its secret is shown in this answer only',
    permission: 'administration',
    request: { params: APP_PARAMS },
    responds: 'application/json',
    returns: 'AccessKey',
    handler: async (ctx) => json(await apps.createKey(ctx.param('id'), callerOf(ctx))),
  });

export const listAccessKeys = (apps: ApplicationService) =>
  route({
    method: 'GET',
    path: '/api/applications/{id}/accessKeys',
    summary: 'List an application’s access keys (never their secrets)',
    permission: 'administration',
    request: { params: APP_PARAMS },
    responds: 'application/json',
    returns: 'AccessKeyInfo[]',
    handler: async (ctx) => json(await apps.keys(ctx.param('id'))),
  });

export const toggleAccessKey = (apps: ApplicationService) =>
  route({
    method: 'POST',
    path: '/api/applications/{applicationId}/accessKeys/{keyId}/status',
    summary: 'Toggle an access key between ACTIVE and INACTIVE (its tokens follow at once)',
    permission: 'administration',
    request: { params: APP_KEY_PARAMS },
    responds: 'application/json',
    returns: 'AccessKeyInfo',
    handler: async (ctx) =>
      json(await apps.toggleKey(ctx.param('applicationId'), ctx.param('keyId'), callerOf(ctx))),
  });

export const deleteAccessKey = (apps: ApplicationService) =>
  route({
    method: 'DELETE',
    path: '/api/applications/{applicationId}/accessKeys/{keyId}',
    summary: 'Delete an access key (its tokens stop at once)',
    permission: 'administration',
    request: { params: APP_KEY_PARAMS },
    handler: async (ctx) => {
      await apps.deleteKey(ctx.param('applicationId'), ctx.param('keyId'), callerOf(ctx));
      return emptyOk();
    },
  });
