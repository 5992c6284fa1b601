/**
 * The admin routes act on the scheduler itself. With security on they need the ADMIN role (the
 * administration permission) or `service.scheduler.admin.token` in `Authorization: Bearer`; with
 * it off, that token in X-Authorization or Authorization (unset, they are closed: 403).
 */
import { timingSafeEqual } from 'node:crypto';
import { json } from '../../http/responses.ts';
import { type RouteContext, type RouteCredential, route } from '../../http/router.ts';
import { ForbiddenError } from '../../model/errors.ts';
import type { SchedulerService } from '../service.ts';

export const adminRequeue = (service: SchedulerService, adminToken: string | undefined) =>
  route({
    method: 'GET',
    path: '/api/scheduler/admin/requeue',
    permission: 'administration',
    admits: adminCredential(adminToken),
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
    permission: 'administration',
    admits: adminCredential(adminToken),
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
    permission: 'administration',
    admits: adminCredential(adminToken),
    summary: 'Resume the scheduler itself (admin)',
    responds: 'application/json',
    handler: async (ctx) => {
      checkAdmin(ctx, adminToken);
      return json(await service.setPaused(false));
    },
  });

/**
 * With security on, the router lets through a request carrying the admin token in
 * `Authorization: Bearer` (X-Authorization holds the API token), whatever its roles.
 */
function adminCredential(token: string | undefined): RouteCredential {
  return {
    what: 'service.scheduler.admin.token in Authorization: Bearer',
    admits: (request) =>
      token !== undefined && token !== '' && matches(bearerOf(request.headers.get('authorization')), token),
  };
}

/**
 * With security on, the router has checked the caller already (the ADMIN role or the admin token).
 * With it off, the request must carry the admin token; unset, the routes are closed.
 */
function checkAdmin(ctx: RouteContext, token: string | undefined): void {
  if (ctx.principal) return;
  if (token === undefined || token === '') {
    throw new ForbiddenError(
      'The scheduler admin routes are closed: service.scheduler.admin.token is not set',
    );
  }
  const header = ctx.request.headers;
  const given = bearerOf(header.get('authorization')) ?? header.get('x-authorization');
  if (!matches(given, token)) {
    throw new ForbiddenError('The scheduler admin routes need the admin credential (X-Authorization)');
  }
}

function bearerOf(header: string | null): string | undefined {
  return header?.replace(/^Bearer\s+/i, '') ?? undefined;
}

function matches(given: string | null | undefined, token: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
