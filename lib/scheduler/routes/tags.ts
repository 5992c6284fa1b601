/**
 * Orkes' schedule tags (docs/conductor-compat.md §7.4, §2.22; as the SDK's SchedulerClient calls
 * them): GET answers a schedule's tags, PUT adds one tag or a list (a key already there gets the
 * new value; Orkes' "put a tag"), DELETE removes the tags given (key and value both matching).
 * 404 for an unknown schedule.
 */
import type { BodyContract } from '../../http/contract.ts';
import { emptyOk, json } from '../../http/responses.ts';
import { route } from '../../http/router.ts';
import { TAG_BODY, tagsOfBody, withoutTags, withTags } from '../../model/tags.ts';
import type { SchedulerService } from '../service.ts';
import { NAME_PARAMS } from './contracts.ts';

const TAGS_BODY: BodyContract = { ...TAG_BODY, required: true };

export const scheduleTags = (service: SchedulerService) =>
  route({
    method: 'GET',
    path: '/api/scheduler/schedules/{name}/tags',
    permission: 'schedules',
    summary: 'The tags of a schedule',
    request: { params: NAME_PARAMS },
    responds: 'application/json',
    returns: 'Tag[]',
    handler: async (ctx) => json(await service.tags(ctx.param('name'))),
  });

export const putScheduleTags = (service: SchedulerService) =>
  route({
    method: 'PUT',
    path: '/api/scheduler/schedules/{name}/tags',
    permission: 'schedules',
    summary: 'Add tags to a schedule (a key already there gets the new value)',
    request: { params: NAME_PARAMS, body: TAGS_BODY },
    handler: async (ctx) => {
      const added = tagsOfBody(await ctx.json());
      await service.changeTags(ctx.param('name'), (tags) => withTags(tags, added));
      return emptyOk();
    },
  });

export const deleteScheduleTags = (service: SchedulerService) =>
  route({
    method: 'DELETE',
    path: '/api/scheduler/schedules/{name}/tags',
    permission: 'schedules',
    summary: 'Remove tags of a schedule (key and value matching)',
    request: { params: NAME_PARAMS, body: TAGS_BODY },
    handler: async (ctx) => {
      const removed = tagsOfBody(await ctx.json());
      await service.changeTags(ctx.param('name'), (tags) => withoutTags(tags, removed));
      return emptyOk();
    },
  });
