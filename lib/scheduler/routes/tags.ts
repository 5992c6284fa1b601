/**
 * Orkes' schedule tags (docs/conductor-compat.md §7.4, §2.22; as the SDK's SchedulerClient calls
 * them): GET answers a schedule's tags, PUT adds one tag or a list (a key already there gets the
 * new value; Orkes' "put a tag"), DELETE removes the tags given (key and value both matching).
 * 404 for an unknown schedule.
 */
import type { RouteDef } from '../../http/router.ts';
import { tagRoutes } from '../../http/tag-routes.ts';
import { applyTagChange } from '../../model/tags.ts';
import type { SchedulerService } from '../service.ts';
import { NAME_PARAMS } from './contracts.ts';

export const scheduleTagRoutes = (service: SchedulerService): RouteDef[] =>
  tagRoutes({
    path: '/api/scheduler/schedules/{name}/tags',
    params: NAME_PARAMS,
    param: 'name',
    what: 'a schedule',
    permissions: { read: 'schedules', manage: 'schedules' },
    add: 'PUT',
    tags: (name) => service.tags(name),
    change: (name, change) => service.changeTags(name, (tags) => applyTagChange(tags, change)),
  });
