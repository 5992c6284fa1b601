/**
 * Read-only answers beside the schedules: the next run times of a cron expression, and the search
 * over recent execution records.
 */
import { integerValue, paramsOf, stringValue } from '../../http/contract.ts';
import { json } from '../../http/responses.ts';
import { route } from '../../http/router.ts';
import type { ScheduleStore } from '../ports.ts';
import { EXECUTION_SEARCH_WINDOW, searchExecutions } from '../search.ts';
import type { SchedulerService } from '../service.ts';
import { PAGE, pageOf } from './contracts.ts';

export const nextFewSchedules = (service: SchedulerService) =>
  route({
    method: 'GET',
    path: '/api/scheduler/nextFewSchedules',
    permission: 'schedules',
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
  });

export const searchScheduleExecutions = (schedules: ScheduleStore) =>
  route({
    method: 'GET',
    path: '/api/scheduler/search/executions',
    permission: 'schedules',
    summary: 'Search schedule execution records',
    request: { query: paramsOf({ query: stringValue('field = value AND ...'), ...PAGE }) },
    responds: 'application/json',
    handler: async (ctx) => {
      const records = await schedules.recentExecutions(EXECUTION_SEARCH_WINDOW);
      return json(searchExecutions(records, ctx.query.string('query'), pageOf(ctx)));
    },
  });
