/** An application's tags: read, add (PUT), remove (DELETE with the tags in the body). */
import { emptyOk, json } from '../../http/responses.ts';
import { route } from '../../http/router.ts';
import type { ApplicationService } from '../service.ts';
import { APP_PARAMS, callerOf, TAGS_BODY } from './contracts.ts';

export const getTags = (apps: ApplicationService) =>
  route({
    method: 'GET',
    path: '/api/applications/{id}/tags',
    summary: 'An application’s tags',
    permission: 'administration',
    request: { params: APP_PARAMS },
    responds: 'application/json',
    returns: 'Tag[]',
    handler: async (ctx) => json(await apps.tags(ctx.param('id'))),
  });

export const putTags = (apps: ApplicationService) =>
  route({
    method: 'PUT',
    path: '/api/applications/{id}/tags',
    summary: 'Add tags to an application (one already there is kept once)',
    permission: 'administration',
    request: { params: APP_PARAMS, body: TAGS_BODY },
    handler: async (ctx) => {
      await apps.addTags(ctx.param('id'), await ctx.checkedBody(TAGS_BODY), callerOf(ctx));
      return emptyOk();
    },
  });

export const deleteTags = (apps: ApplicationService) =>
  route({
    method: 'DELETE',
    path: '/api/applications/{id}/tags',
    summary: 'Remove tags (same key and value) from an application',
    permission: 'administration',
    request: { params: APP_PARAMS, body: TAGS_BODY },
    handler: async (ctx) => {
      await apps.removeTags(ctx.param('id'), await ctx.checkedBody(TAGS_BODY), callerOf(ctx));
      return emptyOk();
    },
  });
