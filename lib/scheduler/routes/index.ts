/**
 * /api/scheduler (docs/api.md "Scheduler API", docs/conductor-compat.md §7.4). Pause and resume answer
 * PUT and GET: the SDK 4.x sends PUT and falls back to GET, 3.x sends GET (docs/conductor-compat.md §7.4).
 * The admin routes act on the scheduler itself and answer 403 unless the request carries
 * `service.scheduler.admin.token` (X-Authorization, or Authorization: Bearer); unset, they are closed.
 *
 * One const per route, one file per part in this folder: the schedules, pausing and resuming
 * them, the previews, the admin routes and the schedules' tags (Orkes). The list below keeps the order the routes always had.
 */
import type { RouteDef } from '../../http/router.ts';
import type { ScheduleStore } from '../ports.ts';
import type { SchedulerService } from '../service.ts';
import { adminPause, adminRequeue, adminResume } from './admin.ts';
import { bulkPause, bulkResume, pauseSchedule, resumeSchedule } from './pause-resume.ts';
import { nextFewSchedules, searchScheduleExecutions } from './previews.ts';
import {
  deleteSchedule,
  getSchedule,
  listSchedules,
  saveSchedule,
  searchSchedulesRoute,
} from './schedules.ts';
import { scheduleTagRoutes } from './tags.ts';

export interface SchedulerRouteDeps {
  service: SchedulerService;
  schedules: ScheduleStore;
  adminToken?: string;
}

export function schedulerRoutes({ service, schedules, adminToken }: SchedulerRouteDeps): RouteDef[] {
  return [
    saveSchedule(service),
    listSchedules(service),
    searchSchedulesRoute(service),
    getSchedule(service),
    deleteSchedule(service),
    pauseSchedule(service, 'PUT'),
    resumeSchedule(service, 'PUT'),
    pauseSchedule(service, 'GET'),
    resumeSchedule(service, 'GET'),
    bulkPause(service),
    bulkResume(service),
    nextFewSchedules(service),
    searchScheduleExecutions(schedules),
    adminRequeue(service, adminToken),
    adminPause(service, adminToken),
    adminResume(service, adminToken),
    ...scheduleTagRoutes(service),
  ];
}
