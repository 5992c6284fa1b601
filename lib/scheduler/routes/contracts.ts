/**
 * Contract pieces the scheduler routes share: the schedule and name-list bodies, the search page
 * query and the schedule name in the path, and how a handler reads that page.
 */
import { type BodyContract, integerValue, pathParams, stringList, stringValue } from '../../http/contract.ts';
import type { RouteContext } from '../../http/router.ts';

const MAX_BULK_NAMES = 1000;

export const SCHEDULE_BODY: BodyContract = {
  title: 'WorkflowSchedule',
  required: true,
  schema: {
    type: 'object',
    description:
      'name, cronExpression/zoneId or cronSchedules, startWorkflowRequest, paused, runCatchupScheduleInstances, scheduleStartTime, scheduleEndTime, description',
  },
};

export const NAMES_BODY: BodyContract = {
  title: 'schedule names',
  required: true,
  schema: {
    type: 'array',
    maxItems: MAX_BULK_NAMES,
    items: { type: 'string', minLength: 1 },
    description: `Schedule names (1 to ${MAX_BULK_NAMES})`,
  },
};

export const PAGE = {
  freeText: stringValue('Free text (default *)'),
  start: integerValue({ minimum: 0 }, 'First hit (default 0)'),
  size: integerValue({ minimum: 0, maximum: 1000 }, 'Hits per page (default 100)'),
  sort: stringList('field[:ASC|DESC], comma-separated'),
};

export const NAME_PARAMS = pathParams({ name: stringValue('Schedule name') });

/** The page a search asks for, with the defaults the routes have always used. */
export function pageOf(ctx: RouteContext) {
  const q = ctx.query;
  return {
    start: q.int('start', 0),
    size: q.int('size', 100),
    sort: q.list('sort'),
    freeText: q.string('freeText'),
  };
}
