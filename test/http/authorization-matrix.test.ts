/**
 * The authorization matrix (docs/security.md "Roles"), walked route by route: a server with
 * security on and every gate open, one application per role (and one with none), and every route
 * of the route table called with each one's token. A route is refused 403, naming the roles that
 * would do, exactly when the caller's roles do not grant its permission; otherwise the request
 * reaches the route (whatever its dummy input then gets: 200, 204, 400, 404, 409...). Open routes
 * need no token. A route added anywhere is walked with no edit here, and one that declares no
 * permission would not have been added to the router at all.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../lib/http/router.ts';
import {
  ALL_PERMISSIONS,
  oneOf,
  type Permission,
  ROLES,
  type Role,
  rolesGrant,
  rolesGranting,
} from '../../lib/security/roles.ts';
import { jsonRequest, useTestServer } from '../helpers/server.ts';

const ADMIN_KEY = { id: 'matrix-admin', secret: 'matrix-admin-secret-0123456789' };

const server = useTestServer({
  'service.security.enabled': true,
  'service.security.keys[0].id': ADMIN_KEY.id,
  'service.security.keys[0].secret': ADMIN_KEY.secret,
  'service.scheduler.enabled': true,
  'service.file-storage.enabled': true,
  'service.file-storage.service.directory': join(mkdtempSync(join(tmpdir(), 'matrix-files-')), 'files'),
  'service.workflow-message-queue.enabled': true,
});

async function token(keyId: string, keySecret: string): Promise<string> {
  const response = await server.fetch(`${server.url}/api/token`, jsonRequest('POST', { keyId, keySecret }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** A concrete path for a route: each `{param}` filled with a value its contract takes. */
function concretePath(route: RouteDef): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const schema = route.request?.params?.properties[name] as
      | { pattern?: string; enum?: string[] }
      | undefined;
    if (schema?.enum?.[0]) return schema.enum[0];
    if (schema?.pattern) return '1';
    if (name === 'status') return 'COMPLETED';
    return `matrix-${name}`;
  });
}

interface Caller {
  name: string;
  roles: readonly Role[];
  token: string;
}

describe('the authorization matrix, route by route', () => {
  const callers: Caller[] = [];

  it('makes one application per role, and one with no role', async () => {
    const admin = await token(ADMIN_KEY.id, ADMIN_KEY.secret);
    const call = async (method: string, path: string, body?: unknown) => {
      const init = jsonRequest(method, body);
      init.headers = { ...(init.headers as Record<string, string>), 'x-authorization': admin };
      const response = await server.fetch(`${server.url}/api${path}`, init);
      expect(response.status, `${method} ${path}`).toBe(200);
      return response.json() as Promise<{ id: string; secret: string }>;
    };
    for (const roles of [...ROLES.map((role) => [role]), []] as Role[][]) {
      const app = await call('POST', '/applications', { name: `matrix ${roles.join('') || 'none'}` });
      for (const role of roles) await call('POST', `/applications/${app.id}/roles/${role}`);
      const key = await call('POST', `/applications/${app.id}/accessKeys`);
      callers.push({ name: roles.join('') || '(no role)', roles, token: await token(key.id, key.secret) });
    }
    expect(callers).toHaveLength(ROLES.length + 1);
  });

  it('lets each caller through exactly the routes its roles grant, refusing the rest 403 naming the roles', async () => {
    const routes = server.server.services.routes();
    const walked = new Set<Permission>();
    const mismatches: string[] = [];
    for (const route of routes) {
      if (route.open) continue;
      const permission = route.permission as Permission;
      walked.add(permission);
      const path = concretePath(route);
      for (const caller of callers) {
        const response = await server.fetch(`${server.url}${path}`, {
          method: route.method,
          headers: { 'x-authorization': caller.token },
        });
        const text = await response.text();
        const allowed = rolesGrant(caller.roles, permission);
        const where = `${caller.name} ${route.method} ${route.path} (${permission}): ${response.status} ${text.slice(0, 200)}`;
        if (allowed) {
          const refusedByRole = response.status === 403 && text.includes('needs the role');
          if (response.status === 401 || refusedByRole) mismatches.push(`refused: ${where}`);
        } else {
          const expected = `needs the role ${oneOf(rolesGranting(permission))}`;
          if (response.status !== 403 || !text.includes(expected)) mismatches.push(`let through: ${where}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    // Every permission is some route's, and the walk met every one.
    expect([...walked].sort()).toEqual([...ALL_PERMISSIONS].sort());
  });

  it('serves the open routes to anyone, token or not', async () => {
    for (const route of server.server.services.routes().filter((r) => r.open)) {
      const path = concretePath(route).replace('matrix-file', 'index.html');
      const response = await server.fetch(`${server.url}${path}`, {
        method: route.method,
        ...(route.method === 'POST' ? jsonRequest('POST', {}) : {}),
      });
      expect([401, 403], `${route.method} ${route.path}`).not.toContain(response.status);
    }
  });

  it('refuses every route that is not open without a token, 401', async () => {
    for (const route of server.server.services.routes().filter((r) => !r.open)) {
      const response = await server.fetch(`${server.url}${concretePath(route)}`, { method: route.method });
      expect(response.status, `${route.method} ${route.path}`).toBe(401);
    }
  });
});
