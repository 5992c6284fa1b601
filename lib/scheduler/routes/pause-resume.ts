/**
 * Pausing and resuming schedules, one at a time or in bulk. The single routes answer PUT and GET:
 * the SDK 4.x sends PUT and falls back to GET, 3.x sends GET.
 */
import { paramsOf, stringValue } from '../../http/contract.ts';
import { emptyOk, json } from '../../http/responses.ts';
import { type HttpMethod, route } from '../../http/router.ts';
import { ValidationError } from '../../model/errors.ts';
import type { SchedulerService } from '../service.ts';
import { NAME_PARAMS, NAMES_BODY } from './contracts.ts';

export const pauseSchedule = (service: SchedulerService, method: HttpMethod) =>
  route({
    method,
    path: '/api/scheduler/schedules/{name}/pause',
    permission: 'schedules',
    summary: `Pause a schedule (${method})`,
    request: { params: NAME_PARAMS, query: paramsOf({ reason: stringValue('Why (pausedReason)') }) },
    handler: async (ctx) => {
      await service.pause(ctx.param('name'), ctx.query.string('reason'));
      return emptyOk();
    },
  });

export const resumeSchedule = (service: SchedulerService, method: HttpMethod) =>
  route({
    method,
    path: '/api/scheduler/schedules/{name}/resume',
    permission: 'schedules',
    summary: `Resume a paused schedule (${method})`,
    request: { params: NAME_PARAMS },
    handler: async (ctx) => {
      await service.resume(ctx.param('name'));
      return emptyOk();
    },
  });

/** The names of a bulk request, without repeats; an empty list is a 400. */
function bulkNames(body: unknown): string[] {
  const names = body as string[];
  if (names.length === 0) throw new ValidationError('A bulk request takes at least one schedule name');
  return [...new Set(names)];
}

export const bulkPause = (service: SchedulerService) =>
  route({
    method: 'PUT',
    path: '/api/scheduler/bulk/pause',
    permission: 'schedules',
    summary: 'Pause many schedules',
    request: { body: NAMES_BODY },
    responds: 'application/json',
    handler: async (ctx) => json(await service.bulk(bulkNames(await ctx.json()), true)),
  });

export const bulkResume = (service: SchedulerService) =>
  route({
    method: 'PUT',
    path: '/api/scheduler/bulk/resume',
    permission: 'schedules',
    summary: 'Resume many schedules',
    request: { body: NAMES_BODY },
    responds: 'application/json',
    handler: async (ctx) => json(await service.bulk(bulkNames(await ctx.json()), false)),
  });
