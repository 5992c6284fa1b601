/**
 * /api/scheduler (SPEC.md "Scheduler API", reference/conductor.md §7.4). Pause and resume answer
 * PUT and GET: the SDK 4.x sends PUT and falls back to GET, 3.x sends GET (reference/sdk-map.md §6).
 * The admin routes act on the scheduler itself and answer 403 unless the request carries
 * `service.scheduler.admin.token` (X-Authorization, or Authorization: Bearer); unset, they are closed.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  type BodyContract,
  booleanValue,
  integerValue,
  paramsOf,
  pathParams,
  stringList,
  stringValue,
} from '../http/contract.ts';
import { emptyOk, json } from '../http/responses.ts';
import { type HttpMethod, type RouteContext, type RouteDef, route } from '../http/router.ts';
import { ForbiddenError, ValidationError } from '../model/errors.ts';
import type { ScheduleStore } from './ports.ts';
import { EXECUTION_SEARCH_WINDOW, searchExecutions, searchSchedules } from './search.ts';
import type { SchedulerService } from './service.ts';

const MAX_BULK_NAMES = 1000;

const SCHEDULE_BODY: BodyContract = {
  title: 'WorkflowSchedule',
  required: true,
  schema: {
    type: 'object',
    description:
      'name, cronExpression/zoneId or cronSchedules, startWorkflowRequest, paused, runCatchupScheduleInstances, scheduleStartTime, scheduleEndTime, description',
  },
};

const NAMES_BODY: BodyContract = {
  title: 'schedule names',
  required: true,
  schema: {
    type: 'array',
    maxItems: MAX_BULK_NAMES,
    items: { type: 'string', minLength: 1 },
    description: `Schedule names (1 to ${MAX_BULK_NAMES})`,
  },
};

const PAGE = {
  freeText: stringValue('Free text (default *)'),
  start: integerValue({ minimum: 0 }, 'First hit (default 0)'),
  size: integerValue({ minimum: 0, maximum: 1000 }, 'Hits per page (default 100)'),
  sort: stringList('field[:ASC|DESC], comma-separated'),
};

const name = pathParams({ name: stringValue('Schedule name') });

export interface SchedulerRouteDeps {
  service: SchedulerService;
  schedules: ScheduleStore;
  adminToken?: string;
}

export function schedulerRoutes(deps: SchedulerRouteDeps): RouteDef[] {
  const { service } = deps;
  const pauseResume = (method: HttpMethod): RouteDef[] => [
    route({
      method,
      path: '/api/scheduler/schedules/{name}/pause',
      summary: `Pause a schedule (${method})`,
      request: { params: name, query: paramsOf({ reason: stringValue('Why (pausedReason)') }) },
      handler: async (ctx) => {
        await service.pause(ctx.param('name'), ctx.query.string('reason'));
        return emptyOk();
      },
    }),
    route({
      method,
      path: '/api/scheduler/schedules/{name}/resume',
      summary: `Resume a paused schedule (${method})`,
      request: { params: name },
      handler: async (ctx) => {
        await service.resume(ctx.param('name'));
        return emptyOk();
      },
    }),
  ];
  const bulk = (operation: 'pause' | 'resume'): RouteDef =>
    route({
      method: 'PUT',
      path: `/api/scheduler/bulk/${operation}`,
      summary: `${operation === 'pause' ? 'Pause' : 'Resume'} many schedules`,
      request: { body: NAMES_BODY },
      responds: 'application/json',
      handler: async (ctx) => {
        const names = (await ctx.json()) as string[];
        if (names.length === 0) throw new ValidationError('A bulk request takes at least one schedule name');
        return json(await service.bulk([...new Set(names)], operation === 'pause'));
      },
    });
  const admin = (path: string, summary: string, act: () => Promise<unknown>): RouteDef =>
    route({
      method: 'GET',
      path,
      summary,
      responds: 'application/json',
      handler: async (ctx) => {
        checkAdmin(ctx, deps.adminToken);
        return json(await act());
      },
    });
  return [
    route({
      method: 'POST',
      path: '/api/scheduler/schedules',
      summary: 'Create or update a schedule by name',
      request: {
        body: SCHEDULE_BODY,
        query: paramsOf({ overwrite: booleanValue('Ignored (the UI sends it)') }),
      },
      responds: 'application/json',
      handler: async (ctx) => json(await service.save(await ctx.json())),
    }),
    route({
      method: 'GET',
      path: '/api/scheduler/schedules',
      summary: 'List schedules, optionally of one workflow',
      request: { query: paramsOf({ workflowName: stringValue('Only schedules starting this workflow') }) },
      responds: 'application/json',
      handler: async (ctx) => json(await service.list(ctx.query.string('workflowName'))),
    }),
    route({
      method: 'GET',
      path: '/api/scheduler/schedules/search',
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
    }),
    route({
      method: 'GET',
      path: '/api/scheduler/schedules/{name}',
      summary: 'Get a schedule',
      request: { params: name },
      responds: 'application/json',
      handler: async (ctx) => json(await service.get(ctx.param('name'))),
    }),
    route({
      method: 'DELETE',
      path: '/api/scheduler/schedules/{name}',
      summary: 'Delete a schedule (a missing one is fine)',
      request: { params: name },
      handler: async (ctx) => {
        await service.delete(ctx.param('name'));
        return emptyOk();
      },
    }),
    ...pauseResume('PUT'),
    ...pauseResume('GET'),
    bulk('pause'),
    bulk('resume'),
    route({
      method: 'GET',
      path: '/api/scheduler/nextFewSchedules',
      summary: 'Preview the next run times of a cron expression (at most 5)',
      request: {
        query: paramsOf(
          {
            cronExpression: stringValue('Spring 6-field cron expression'),
            scheduleStartTime: integerValue({ minimum: 0 }, 'From (epoch ms, default now)'),
            scheduleEndTime: integerValue({ minimum: 0 }, 'Until (epoch ms)'),
            limit: integerValue({ minimum: 1 }, 'How many (default 5, capped at 5)'),
          },
          ['cronExpression'],
        ),
      },
      responds: 'application/json',
      handler: (ctx) => {
        const q = ctx.query;
        return json(
          service.nextFew(q.required('cronExpression'), {
            start: q.optionalInt('scheduleStartTime'),
            end: q.optionalInt('scheduleEndTime'),
            limit: q.int('limit', 5),
          }),
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/scheduler/search/executions',
      summary: 'Search schedule execution records',
      request: { query: paramsOf({ query: stringValue('field = value AND ...'), ...PAGE }) },
      responds: 'application/json',
      handler: async (ctx) => {
        const records = await deps.schedules.recentExecutions(EXECUTION_SEARCH_WINDOW);
        return json(searchExecutions(records, ctx.query.string('query'), pageOf(ctx)));
      },
    }),
    admin('/api/scheduler/admin/requeue', 'Re-send every active schedule’s current fires (admin)', () =>
      service.requeue(),
    ),
    admin('/api/scheduler/admin/pause', 'Pause the scheduler itself (admin)', () => service.setPaused(true)),
    admin('/api/scheduler/admin/resume', 'Resume the scheduler itself (admin)', () =>
      service.setPaused(false),
    ),
  ];
}

function pageOf(ctx: RouteContext) {
  const q = ctx.query;
  return {
    start: q.int('start', 0),
    size: q.int('size', 100),
    sort: q.list('sort'),
    freeText: q.string('freeText'),
  };
}

function checkAdmin(ctx: RouteContext, token: string | undefined): void {
  if (token === undefined || token === '') {
    throw new ForbiddenError(
      'The scheduler admin routes are closed: service.scheduler.admin.token is not set',
    );
  }
  const header = ctx.request.headers;
  // Authorization first: with service.security.enabled, X-Authorization carries the API token.
  const given = header.get('authorization')?.replace(/^Bearer\s+/i, '') ?? header.get('x-authorization');
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new ForbiddenError('The scheduler admin routes need the admin credential (X-Authorization)');
  }
}
