/**
 * The schedules themselves: save (create or update by name), list, search, get and delete.
 */
import { booleanValue, paramsOf, stringValue } from '../../http/contract.ts';
import { emptyOk, json } from '../../http/responses.ts';
import { route } from '../../http/router.ts';
import { searchSchedules } from '../search.ts';
import type { SchedulerService } from '../service.ts';
import { NAME_PARAMS, PAGE, pageOf, SCHEDULE_BODY } from './contracts.ts';

export const saveSchedule = (service: SchedulerService) =>
  route({
    method: 'POST',
    path: '/api/scheduler/schedules',
    permission: 'schedules',
    summary: 'Create or update a schedule by name',
    request: {
      body: SCHEDULE_BODY,
      query: paramsOf({ overwrite: booleanValue('Ignored (the UI sends it)') }),
    },
    responds: 'application/json',
    handler: async (ctx) => json(await service.save(await ctx.json())),
  });

export const listSchedules = (service: SchedulerService) =>
  route({
    method: 'GET',
    path: '/api/scheduler/schedules',
    permission: 'schedules',
    summary: 'List schedules, optionally of one workflow',
    request: { query: paramsOf({ workflowName: stringValue('Only schedules starting this workflow') }) },
    responds: 'application/json',
    handler: async (ctx) => json(await service.list(ctx.query.string('workflowName'))),
  });

export const searchSchedulesRoute = (service: SchedulerService) =>
  route({
    method: 'GET',
    path: '/api/scheduler/schedules/search',
    permission: 'schedules',
    summary: 'Search schedules',
    request: {
      query: paramsOf({
        workflowName: stringValue('Workflow name'),
        scheduleName: stringValue('Schedule name'),
        paused: booleanValue('Paused or not'),
        ...PAGE,
      }),
    },
    responds: 'application/json',
    handler: async (ctx) => {
      const q = ctx.query;
      const all = await service.list();
      return json(
        searchSchedules(all, {
          workflowName: q.string('workflowName'),
          scheduleName: q.string('scheduleName'),
          paused: q.string('paused') === undefined ? undefined : q.bool('paused', false),
          ...pageOf(ctx),
        }),
      );
    },
  });

export const getSchedule = (service: SchedulerService) =>
  route({
    method: 'GET',
    path: '/api/scheduler/schedules/{name}',
    permission: 'schedules',
    summary: 'Get a schedule',
    request: { params: NAME_PARAMS },
    responds: 'application/json',
    handler: async (ctx) => json(await service.get(ctx.param('name'))),
  });

export const deleteSchedule = (service: SchedulerService) =>
  route({
    method: 'DELETE',
    path: '/api/scheduler/schedules/{name}',
    permission: 'schedules',
    summary: 'Delete a schedule (a missing one is fine)',
    request: { params: NAME_PARAMS },
    handler: async (ctx) => {
      await service.delete(ctx.param('name'));
      return emptyOk();
    },
  });
