// The capability list as the hosts and the stack read it: every route reachable on AWS, one handler
// file per capability, table names derived (never spelt) on both sides.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUTH_CAPABILITIES } from '../../lib/auth-capabilities.ts';
import {
  type AnyCapability,
  CAPABILITIES,
  CONSUMERS,
  capabilities,
  routeGroupGrants,
  TABLES,
} from '../../lib/capabilities.ts';
import { ALL_TABLES, WORK_QUEUES } from '../../lib/catalog.ts';
import { ConfigError, configOf, loadConfig } from '../../lib/config/load.ts';
import { ENGINE_CAPABILITIES } from '../../lib/engine-capabilities.ts';
import type { RouteDef } from '../../lib/http/router.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { LocalDecisionQueue } from '../../lib/queue/local.ts';
import { createServices } from '../../lib/runtime/services.ts';
import { tableNamesOf } from '../../lib/runtime/store-bundle.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { tablePropertyName } from '../../lib/store/dynamodb/tables.ts';

function services() {
  const clock = new ManualClock();
  return createServices({
    config: configOf({ 'service.store': 'memory' }),
    logger: silentLogger,
    clock,
    stores: createMemoryStores(),
    decisions: new LocalDecisionQueue(clock, silentLogger),
    scripts: { evaluate: async () => ({}), close: async () => {} },
  });
}

/** Whether an API Gateway route key (`ANY /api/tasks/{proxy+}`, `GET /health`) reaches a route. */
function reaches(routeKey: string, route: RouteDef): boolean {
  const [method, path = ''] = routeKey.split(' ');
  if (method !== 'ANY' && method !== route.method) return false;
  const keySegments = path.split('/').filter(Boolean);
  const routeSegments = route.path.split('/').filter(Boolean);
  for (const [i, segment] of keySegments.entries()) {
    // A greedy proxy takes one or more remaining segments.
    if (segment.endsWith('+}')) return routeSegments.length > i;
    const other = routeSegments[i];
    if (other === undefined) return false;
    if (!segment.startsWith('{') && !other.startsWith('{') && segment !== other) return false;
  }
  return keySegments.length === routeSegments.length;
}

describe('the capability list', () => {
  const s = services();

  it.each(capabilities().map((c) => [c.name, c] as const))(
    'reaches every route of %s through its API Gateway routes',
    (_name, capability) => {
      const routes = capability.routes(s, s.provided(capability));
      expect(routes.length).toBeGreaterThan(0);
      const unreachable = routes.filter((route) => !capability.apiRoutes.some((key) => reaches(key, route)));
      expect(unreachable.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    },
  );

  it('tells a route outside the API Gateway routes from one inside', () => {
    const route: RouteDef = {
      method: 'GET',
      path: '/api/schema/{name}',
      summary: 'a route of another capability',
      permission: 'definitions:read',
      handler: () => new Response(),
    };
    expect(reaches('ANY /api/metadata/{proxy+}', route)).toBe(false);
    expect(reaches('ANY /api/schema/{proxy+}', route)).toBe(true);
    expect(reaches('GET /api/schema', route)).toBe(false);
  });

  it('gives every capability a Lambda handler file and a unique name', () => {
    const names = CAPABILITIES.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(existsSync(`functions/${name}.ts`)).toBe(true);
  });

  it('grants only tables some capability declares, and declares each table once', () => {
    const ids = TABLES.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+$/);
    for (const capability of CAPABILITIES) {
      for (const grant of capability.grants.tables) expect(TABLES).toContain(grant.table);
    }
  });

  it('grants every route group the tables token checks read when keys are required, and only then', () => {
    const named = (name: string) => CAPABILITIES.find((c) => c.name === name) as AnyCapability;
    const metadata = named('metadata');
    expect(routeGroupGrants(metadata, false)).toBe(metadata.grants);
    const secured = routeGroupGrants(metadata, true).tables.map((g) => `${g.table.id}:${g.access}`);
    expect(secured).toEqual(['definitions:readWrite', 'applications:read']);
    // The applications group keeps its own readWrite grant, not a second, weaker one.
    const applications = routeGroupGrants(named('applications'), true).tables;
    expect(applications.map((g) => `${g.table.id}:${g.access}`)).toEqual(['applications:readWrite']);
  });

  it('lists in lib/catalog.ts exactly the tables and work queues the capabilities declare', () => {
    const ids = (tables: readonly { id: string }[]) => tables.map((t) => t.id).sort();
    expect(ids(ALL_TABLES)).toEqual(ids(TABLES));
    expect([...WORK_QUEUES].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      CONSUMERS.map((c) => c.queue).sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('lists in lib/engine-capabilities.ts every capability that gives the engine a store or a contribution', () => {
    // The stores the engine runs on (lib/store/ports.ts Stores).
    const engineStores = ['executions', 'queue', 'pollData', 'limits', 'workflowDefs', 'taskDefs'];
    const contributes = (capability: AnyCapability) =>
      capability.engine !== undefined ||
      capability.engineGrants !== undefined ||
      Object.keys(capability.stores?.memory() ?? {}).some((key) => engineStores.includes(key));
    expect(ENGINE_CAPABILITIES.map((c) => c.name).sort()).toEqual(
      capabilities()
        .filter(contributes)
        .map((c) => c.name)
        .sort(),
    );
    for (const capability of ENGINE_CAPABILITIES) expect(CAPABILITIES).toContain(capability);
  });

  it('lists as checking tokens exactly the capabilities that ask for tables to check them', () => {
    expect(AUTH_CAPABILITIES.map((c) => c.name).sort()).toEqual(
      capabilities()
        .filter((c) => c.authGrants !== undefined)
        .map((c) => c.name)
        .sort(),
    );
  });

  it("builds every capability's stores into one bundle", () => {
    const stores = createMemoryStores();
    for (const capability of CAPABILITIES) {
      for (const key of Object.keys(capability.stores?.memory() ?? {})) expect(stores).toHaveProperty(key);
    }
  });
});

describe('table names', () => {
  it('are read from the property the stack sets for each table, else prefix + id', () => {
    const executions = TABLES.find((t) => t.id === 'executions');
    if (!executions) throw new Error('no executions table');
    const env = {
      SERVICE_DYNAMODB_TABLES_EXECUTIONS: 'Stack-ExecutionsABC',
      SERVICE_DYNAMODB_TABLE_PREFIX: 'p-',
    };
    const config = loadConfig({ env, cwd: '/nonexistent-config-dir' });
    expect(config.string(tablePropertyName(executions))).toBe('Stack-ExecutionsABC');
    expect(tableNamesOf(config)).toMatchObject({
      executions: 'Stack-ExecutionsABC',
      definitions: 'p-definitions',
      queues: 'p-queues',
    });
  });

  it('stop the start when a table property names no table', () => {
    const config = configOf({ 'service.dynamodb.tables.schemaz': 'x' });
    expect(() => tableNamesOf(config)).toThrow(ConfigError);
    expect(() => tableNamesOf(config)).toThrow(/service\.dynamodb\.tables\.schemaz names no table/);
  });
});
