/**
 * Roles and permissions (lib/security/roles.ts): every route of every capability is open or names a
 * permission (and the router refuses one that does neither), the matrix grants what
 * docs/security.md says it grants (the table there is compared with the code), and representative
 * routes are open to exactly the roles the brief of each role promises.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { json } from '../../lib/http/responses.ts';
import { type RouteDef, Router } from '../../lib/http/router.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { LocalDecisionQueue } from '../../lib/queue/local.ts';
import { createServices } from '../../lib/runtime/services.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import {
  ALL_PERMISSIONS,
  isPermission,
  PERMISSIONS,
  type Permission,
  ROLE_PERMISSIONS,
  ROLES,
  type Role,
  rolesGranting,
} from '../../lib/security/roles.ts';

/** Every route of every capability, every gate open. */
function everyRoute(): readonly RouteDef[] {
  const clock = new ManualClock();
  return createServices({
    config: configOf({
      'service.store': 'memory',
      'service.scheduler.enabled': true,
      'service.file-storage.enabled': true,
      'service.file-storage.service.directory': join(mkdtempSync(join(tmpdir(), 'roles-files-')), 'files'),
      'service.workflow-message-queue.enabled': true,
    }),
    logger: silentLogger,
    clock,
    stores: createMemoryStores(),
    decisions: new LocalDecisionQueue(clock, silentLogger),
    scripts: { evaluate: async () => ({}), close: async () => {} },
  }).routes();
}

describe('route permissions', () => {
  const routes = everyRoute();
  const find = (method: string, path: string) => {
    const route = routes.find((r) => r.method === method && r.path === path);
    if (!route) throw new Error(`No route ${method} ${path}`);
    return route;
  };

  it('is declared by every route: open, or one known permission', () => {
    const undeclared = routes.filter((r) => !(r.open === true || isPermission(r.permission)));
    expect(undeclared.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(routes.filter((r) => r.open).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /health',
      'GET /api/health',
      'GET /api/version',
      'GET /api-docs',
      'GET /swagger-ui/{file}',
    ]);
  });

  it('is required by the router, which refuses a route declaring none', () => {
    const route = { method: 'GET', path: '/api/x', summary: 'no permission', handler: () => json({}) };
    const router = new Router({ logger: silentLogger, instance: 'roles-test' });
    expect(() => router.add(route as unknown as RouteDef)).toThrow(/neither open nor declares a permission/);
  });

  it.each([
    // A WORKER polls, updates and logs tasks of any type, and reads definitions.
    ['GET', '/api/tasks/poll/{taskType}', ['WORKER', 'USER', 'ADMIN']],
    ['GET', '/api/tasks/poll/batch/{taskType}', ['WORKER', 'USER', 'ADMIN']],
    ['POST', '/api/tasks', ['WORKER', 'USER', 'ADMIN']],
    ['POST', '/api/tasks/update-v2', ['WORKER', 'USER', 'ADMIN']],
    ['POST', '/api/tasks/{taskId}/log', ['WORKER', 'USER', 'ADMIN']],
    [
      'GET',
      '/api/metadata/taskdefs/{taskType}',
      ['WORKER', 'METADATA_MANAGER', 'WORKFLOW_MANAGER', 'USER', 'ADMIN'],
    ],
    [
      'GET',
      '/api/metadata/workflow/{name}',
      ['WORKER', 'METADATA_MANAGER', 'WORKFLOW_MANAGER', 'USER', 'ADMIN'],
    ],
    // A METADATA_MANAGER manages definitions, schemas and event handlers.
    ['POST', '/api/metadata/workflow', ['METADATA_MANAGER', 'USER', 'ADMIN']],
    ['DELETE', '/api/metadata/taskdefs/{taskType}', ['METADATA_MANAGER', 'USER', 'ADMIN']],
    ['POST', '/api/schema', ['METADATA_MANAGER', 'USER', 'ADMIN']],
    ['PUT', '/api/event', ['METADATA_MANAGER', 'USER', 'ADMIN']],
    // A WORKFLOW_MANAGER starts and manages runs and schedules.
    ['POST', '/api/workflow/{name}', ['WORKFLOW_MANAGER', 'USER', 'ADMIN']],
    ['POST', '/api/workflow/execute/{name}/{version}', ['WORKFLOW_MANAGER', 'USER', 'ADMIN']],
    ['PUT', '/api/workflow/{workflowId}/pause', ['WORKFLOW_MANAGER', 'USER', 'ADMIN']],
    ['POST', '/api/workflow/bulk/terminate', ['WORKFLOW_MANAGER', 'USER', 'ADMIN']],
    ['GET', '/api/workflow/{workflowId}', ['WORKFLOW_MANAGER', 'USER', 'ADMIN']],
    ['GET', '/api/workflow/search', ['WORKFLOW_MANAGER', 'USER', 'ADMIN']],
    ['POST', '/api/scheduler/schedules', ['WORKFLOW_MANAGER', 'USER', 'ADMIN']],
    ['PUT', '/api/scheduler/schedules/{name}/pause', ['WORKFLOW_MANAGER', 'USER', 'ADMIN']],
    // Administration: ADMIN only.
    ['POST', '/api/applications', ['ADMIN']],
    ['POST', '/api/applications/{applicationId}/roles/{role}', ['ADMIN']],
    ['GET', '/api/scheduler/admin/pause', ['ADMIN']],
  ] as [string, string, Role[]][])('opens %s %s to %j', (method, path, roles) => {
    expect(rolesGranting(find(method, path).permission as Permission)).toEqual(roles);
  });

  it('gives USER everything but administration, and ADMIN everything', () => {
    expect(ROLE_PERMISSIONS.ADMIN).toEqual(ALL_PERMISSIONS);
    expect([...ROLE_PERMISSIONS.USER, 'administration'].sort()).toEqual([...ALL_PERMISSIONS].sort());
  });
});

describe('docs/security.md', () => {
  it('shows the matrix the code grants, permission by permission', () => {
    const text = readFileSync(join(import.meta.dirname, '../../docs/security.md'), 'utf8');
    const lines = text.split('\n');
    const header = lines.find((l) => l.startsWith('| Permission |'));
    if (!header) throw new Error('docs/security.md has no "| Permission |" table');
    const columns = header.split('|').map((c) => c.trim());
    const documented: Record<string, string[]> = {};
    for (const line of lines) {
      const cells = line.split('|').map((c) => c.trim());
      const permission = /^`([a-z:]+)`$/.exec(cells[1] ?? '')?.[1];
      if (!permission || !isPermission(permission)) continue;
      documented[permission] = ROLES.filter((role) => cells[columns.indexOf(role)] === '✓');
    }
    const granted = Object.fromEntries(
      ALL_PERMISSIONS.map((p) => [p, ROLES.filter((r) => ROLE_PERMISSIONS[r].includes(p))]),
    );
    expect(documented).toEqual(granted);
    for (const permission of Object.keys(PERMISSIONS)) expect(text).toContain(`\`${permission}\``);
  });
});
