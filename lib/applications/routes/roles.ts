/** An application's roles (docs/security.md "Roles"): added and removed one at a time. */
import { json } from '../../http/responses.ts';
import { route } from '../../http/router.ts';
import type { Role } from '../../security/roles.ts';
import type { ApplicationService } from '../service.ts';
import { callerOf, ROLE_PARAMS } from './contracts.ts';

export const addRole = (apps: ApplicationService) =>
  route({
    method: 'POST',
    path: '/api/applications/{applicationId}/roles/{role}',
    summary: 'Give an application a role (its keys’ tokens have it from the next request)',
    permission: 'administration',
    request: { params: ROLE_PARAMS },
    responds: 'application/json',
    returns: 'Application',
    handler: async (ctx) =>
      json(await apps.addRole(ctx.param('applicationId'), ctx.param('role') as Role, callerOf(ctx))),
  });

export const removeRole = (apps: ApplicationService) =>
  route({
    method: 'DELETE',
    path: '/api/applications/{applicationId}/roles/{role}',
    summary: 'Take a role from an application (its keys’ tokens lose it from the next request)',
    permission: 'administration',
    request: { params: ROLE_PARAMS },
    responds: 'application/json',
    returns: 'Application',
    handler: async (ctx) =>
      json(await apps.removeRole(ctx.param('applicationId'), ctx.param('role') as Role, callerOf(ctx))),
  });
