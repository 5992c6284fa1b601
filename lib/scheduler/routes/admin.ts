/**
 * The admin routes act on the scheduler itself and answer 403 unless the request carries
 * `service.scheduler.admin.token` (X-Authorization, or Authorization: Bearer); unset, they are
 * closed.
 */
import { timingSafeEqual } from 'node:crypto';
import { json } from '../../http/responses.ts';
import { type RouteContext, route } from '../../http/router.ts';
import { ForbiddenError } from '../../model/errors.ts';
import type { SchedulerService } from '../service.ts';

export const adminRequeue = (service: SchedulerService, adminToken: string | undefined) =>
  route({
    method: 'GET',
    path: '/api/scheduler/admin/requeue',
    summary: 'Re-send every active schedule’s current fires (admin)',
    responds: 'application/json',
    handler: async (ctx) => {
      checkAdmin(ctx, adminToken);
      return json(await service.requeue());
    },
  });

export const adminPause = (service: SchedulerService, adminToken: string | undefined) =>
  route({
    method: 'GET',
    path: '/api/scheduler/admin/pause',
    summary: 'Pause the scheduler itself (admin)',
    responds: 'application/json',
    handler: async (ctx) => {
      checkAdmin(ctx, adminToken);
      return json(await service.setPaused(true));
    },
  });

export const adminResume = (service: SchedulerService, adminToken: string | undefined) =>
  route({
    method: 'GET',
    path: '/api/scheduler/admin/resume',
    summary: 'Resume the scheduler itself (admin)',
    responds: 'application/json',
    handler: async (ctx) => {
      checkAdmin(ctx, adminToken);
      return json(await service.setPaused(false));
    },
  });

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
