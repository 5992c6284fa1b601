/**
 * /api/applications over both transports: applications, access keys, roles and tags as the SDK's
 * ApplicationClient calls them, with security off (the local default: open, as every route) and on
 * (ADMIN only; stored keys get tokens with their application's roles; a key disabled or deleted, or
 * a role removed, counts at once, for the tokens already issued too). Bad input on every route is a
 * 4xx with the error body and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { errorBody, jsonRequest, type TestServer, useTestServer } from '../helpers/server.ts';

const ADMIN_KEY = { id: 'admin-key', secret: 'admin-key-secret-0123456789' };
const SECURED = {
  'service.security.enabled': true,
  'service.security.keys[0].id': ADMIN_KEY.id,
  'service.security.keys[0].secret': ADMIN_KEY.secret,
  'service.scheduler.admin.token': 'scheduler-admin-token',
};

interface App {
  id: string;
  name: string;
  roles: string[];
  tags: { key: string; value: string }[];
  createTime: number;
  createdBy: string;
  updateTime: number;
  updatedBy: string;
}

/** A client of one server, sending `token` (when set) in X-Authorization. */
function clientOf(server: TestServer, token?: () => string | undefined) {
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init = jsonRequest(method, body);
    const given = token?.();
    init.headers = { ...(init.headers as Record<string, string>), ...headers };
    if (given) (init.headers as Record<string, string>)['x-authorization'] = given;
    return server.fetch(`${server.url}/api${path}`, init);
  };
  const ok = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await call(method, path, body);
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  return { call, ok };
}

async function tokenFor(server: TestServer, keyId: string, keySecret: string): Promise<Response> {
  return server.fetch(`${server.url}/api/token`, jsonRequest('POST', { keyId, keySecret }));
}

async function issued(server: TestServer, keyId: string, keySecret: string): Promise<string> {
  const response = await tokenFor(server, keyId, keySecret);
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

describe('with security off (the local default)', () => {
  const server = useTestServer();
  const api = clientOf(server);

  it('creates, lists, reads, renames and deletes applications, recording nobody as their author', async () => {
    const created = await api.ok<App>('POST', '/applications', { name: 'billing' });
    expect(created).toMatchObject({ name: 'billing', roles: [], tags: [], createdBy: 'anonymous' });
    expect(typeof created.id).toBe('string');
    expect(typeof created.createTime).toBe('number');
    expect((await api.ok<App[]>('GET', '/applications')).map((a) => a.id)).toContain(created.id);
    expect(await api.ok<App>('GET', `/applications/${created.id}`)).toEqual(created);
    const renamed = await api.ok<App>('PUT', `/applications/${created.id}`, { name: 'invoicing' });
    expect(renamed).toMatchObject({ id: created.id, name: 'invoicing', createTime: created.createTime });
    expect((await api.ok<App>('GET', `/applications/${created.id}`)).name).toBe('invoicing');
    expect((await api.call('DELETE', `/applications/${created.id}`)).status).toBe(200);
    await errorBody(await api.call('GET', `/applications/${created.id}`), 404);
  });

  it('makes access keys whose secret is shown once, lists them, toggles and deletes them', async () => {
    const app = await api.ok<App>('POST', '/applications', { name: 'keys' });
    const key = await api.ok<{ id: string; secret: string }>('POST', `/applications/${app.id}/accessKeys`);
    expect(key.secret.length).toBeGreaterThanOrEqual(32);
    const listed = await api.ok<{ id: string; createdAt: number; status: string }[]>(
      'GET',
      `/applications/${app.id}/accessKeys`,
    );
    expect(listed).toEqual([{ id: key.id, createdAt: expect.any(Number), status: 'ACTIVE' }]);
    expect(JSON.stringify(listed)).not.toContain(key.secret);
    expect((await api.ok<App>('GET', `/applications/key/${key.id}`)).id).toBe(app.id);
    const toggled = await api.ok<{ status: string }>(
      'POST',
      `/applications/${app.id}/accessKeys/${key.id}/status`,
    );
    expect(toggled).toMatchObject({ id: key.id, status: 'INACTIVE' });
    expect(
      await api.ok<{ status: string }>('POST', `/applications/${app.id}/accessKeys/${key.id}/status`),
    ).toMatchObject({ status: 'ACTIVE' });
    expect((await api.call('DELETE', `/applications/${app.id}/accessKeys/${key.id}`)).status).toBe(200);
    expect(await api.ok('GET', `/applications/${app.id}/accessKeys`)).toEqual([]);
    await errorBody(await api.call('GET', `/applications/key/${key.id}`), 404);
  });

  it('adds and removes roles, and adds and removes tags (a tag once)', async () => {
    const app = await api.ok<App>('POST', '/applications', { name: 'roles' });
    expect((await api.ok<App>('POST', `/applications/${app.id}/roles/WORKER`)).roles).toEqual(['WORKER']);
    await api.ok('POST', `/applications/${app.id}/roles/METADATA_MANAGER`);
    await api.ok('POST', `/applications/${app.id}/roles/WORKER`);
    expect((await api.ok<App>('GET', `/applications/${app.id}`)).roles).toEqual([
      'WORKER',
      'METADATA_MANAGER',
    ]);
    expect((await api.ok<App>('DELETE', `/applications/${app.id}/roles/WORKER`)).roles).toEqual([
      'METADATA_MANAGER',
    ]);
    const tags = [
      { key: 'team', value: 'billing' },
      { key: 'env', value: 'test' },
    ];
    await api.ok('PUT', `/applications/${app.id}/tags`, tags);
    await api.ok('PUT', `/applications/${app.id}/tags`, [tags[0]]);
    expect(await api.ok('GET', `/applications/${app.id}/tags`)).toEqual(tags);
    await api.ok('DELETE', `/applications/${app.id}/tags`, [tags[0], { key: 'absent', value: 'x' }]);
    expect(await api.ok('GET', `/applications/${app.id}/tags`)).toEqual([tags[1]]);
    expect((await api.ok<App>('GET', `/applications/${app.id}`)).tags).toEqual([tags[1]]);
  });

  it('answers bad input on every route with a 4xx error body, changing nothing', async () => {
    const app = await api.ok<App>('POST', '/applications', { name: 'untouched' });
    const key = await api.ok<{ id: string }>('POST', `/applications/${app.id}/accessKeys`);
    const before = {
      app: await api.ok<App>('GET', `/applications/${app.id}`),
      keys: await api.ok('GET', `/applications/${app.id}/accessKeys`),
      count: (await api.ok<App[]>('GET', '/applications')).length,
    };
    const cases: [string, string, unknown, number, RegExp?][] = [
      ['POST', '/applications', undefined, 400, /Request body is required/],
      ['POST', '/applications', {}, 400, /Application name is required/],
      ['POST', '/applications', { name: '' }, 400, /Application name cannot be empty/],
      ['POST', '/applications', { name: 7 }, 400],
      ['POST', '/applications', { name: 'x'.repeat(256) }, 400],
      ['POST', '/applications', '{"name":', 400],
      ['PUT', `/applications/${app.id}`, {}, 400],
      ['PUT', '/applications/no-such-app', { name: 'x' }, 404, /No application no-such-app/],
      ['GET', '/applications/no-such-app', undefined, 404],
      ['DELETE', '/applications/no-such-app', undefined, 404],
      ['POST', '/applications/no-such-app/accessKeys', undefined, 404],
      ['GET', '/applications/no-such-app/accessKeys', undefined, 404],
      ['POST', `/applications/${app.id}/accessKeys/no-such-key/status`, undefined, 404, /no access key/],
      ['POST', `/applications/no-such-app/accessKeys/${key.id}/status`, undefined, 404],
      ['DELETE', `/applications/${app.id}/accessKeys/no-such-key`, undefined, 404],
      ['GET', '/applications/key/no-such-key', undefined, 404],
      ['POST', `/applications/${app.id}/roles/APPLICATION_MANAGER`, undefined, 400, /Role must be one of/],
      ['POST', `/applications/${app.id}/roles/admin`, undefined, 400],
      ['POST', '/applications/no-such-app/roles/USER', undefined, 404],
      ['DELETE', '/applications/no-such-app/roles/USER', undefined, 404],
      ['DELETE', `/applications/${app.id}/roles/NOBODY`, undefined, 400],
      ['PUT', `/applications/${app.id}/tags`, undefined, 400],
      ['PUT', `/applications/${app.id}/tags`, { key: 'k', value: 'v' }, 400],
      ['PUT', `/applications/${app.id}/tags`, [{ key: 'k' }], 400],
      ['PUT', `/applications/${app.id}/tags`, [{ key: '', value: 'v' }], 400],
      [
        'PUT',
        `/applications/${app.id}/tags`,
        Array.from({ length: 101 }, (_, i) => ({ key: `${i}`, value: '' })),
        400,
      ],
      ['DELETE', `/applications/${app.id}/tags`, [{ value: 'v' }], 400],
      ['PUT', '/applications/no-such-app/tags', [{ key: 'k', value: 'v' }], 404],
      ['GET', '/applications/no-such-app/tags', undefined, 404],
    ];
    for (const [method, path, body, status, message] of cases) {
      const error = await errorBody(await api.call(method, path, body), status);
      if (message) expect(error.message, `${method} ${path}`).toMatch(message);
    }
    expect(await api.ok<App>('GET', `/applications/${app.id}`)).toEqual(before.app);
    expect(await api.ok('GET', `/applications/${app.id}/accessKeys`)).toEqual(before.keys);
    expect((await api.ok<App[]>('GET', '/applications')).length).toBe(before.count);
  });

  it('holds at most 10 keys per application: the 11th is a 409', async () => {
    const app = await api.ok<App>('POST', '/applications', { name: 'many keys' });
    for (let i = 0; i < 10; i++) await api.ok('POST', `/applications/${app.id}/accessKeys`);
    await errorBody(await api.call('POST', `/applications/${app.id}/accessKeys`), 409);
    expect(await api.ok<unknown[]>('GET', `/applications/${app.id}/accessKeys`)).toHaveLength(10);
  });

  it('leaves every other route open, with no token, and POST /api/token 404', async () => {
    expect((await api.call('GET', '/metadata/workflow')).status).toBe(200);
    await errorBody(await tokenFor(server, 'x', 'y'), 404);
  });
});

describe('with security on', () => {
  const clock = new ManualClock(Date.now());
  const server = useTestServer(SECURED, { clock });
  let adminToken: string | undefined;
  const admin = clientOf(server, () => adminToken);
  const withToken = (token: string) => clientOf(server, () => token);

  /** An application with these roles and one key, made by the configured ADMIN key. */
  async function applicationWith(roles: string[]) {
    adminToken ??= await issued(server, ADMIN_KEY.id, ADMIN_KEY.secret);
    const app = await admin.ok<App>('POST', '/applications', { name: `app ${roles.join('+')}` });
    for (const role of roles) await admin.ok('POST', `/applications/${app.id}/roles/${role}`);
    const key = await admin.ok<{ id: string; secret: string }>('POST', `/applications/${app.id}/accessKeys`);
    return { app, key, token: await issued(server, key.id, key.secret) };
  }

  it('lets the configured key (ADMIN) manage applications, recorded as their author', async () => {
    const { app } = await applicationWith(['WORKER']);
    expect(app.createdBy).toBe(ADMIN_KEY.id);
    expect((await admin.ok<App>('GET', `/applications/${app.id}`)).updatedBy).toBe(ADMIN_KEY.id);
  });

  it('gives a stored key a token that carries its application roles, and refuses the rest 403 naming the roles', async () => {
    const { token } = await applicationWith(['WORKER']);
    const worker = withToken(token);
    expect((await worker.call('GET', '/metadata/workflow')).status).toBe(200);
    expect([200, 204]).toContain((await worker.call('GET', '/tasks/poll/some_task')).status);
    const refused = await errorBody(await worker.call('POST', '/metadata/taskdefs', [{ name: 'x' }]), 403);
    expect(refused.message).toContain('needs the role METADATA_MANAGER, USER or ADMIN');
    expect(refused.message).toContain("permission 'definitions:manage'");
    expect(refused.message).toContain('has WORKER');
    expect(await admin.ok('GET', '/metadata/taskdefs/x').catch(() => 'absent')).toBe('absent');
    const noAdmin = await errorBody(await worker.call('GET', '/applications'), 403);
    expect(noAdmin.message).toContain('needs the role ADMIN');
  });

  it('refuses an application with no role everything but the open routes', async () => {
    const { token } = await applicationWith([]);
    const none = withToken(token);
    expect((await errorBody(await none.call('GET', '/metadata/workflow'), 403)).message).toContain(
      'has no role',
    );
    expect((await server.fetch(`${server.url}/api/version`)).status).toBe(200);
  });

  it('counts a role added or removed from the next request, with the token already issued', async () => {
    const { app, token } = await applicationWith(['WORKER']);
    const caller = withToken(token);
    await errorBody(await caller.call('GET', '/workflow/running/x'), 403);
    await admin.ok('POST', `/applications/${app.id}/roles/WORKFLOW_MANAGER`);
    expect((await caller.call('GET', '/workflow/running/x')).status).toBe(200);
    await admin.ok('DELETE', `/applications/${app.id}/roles/WORKFLOW_MANAGER`);
    await errorBody(await caller.call('GET', '/workflow/running/x'), 403);
  });

  it('stops a disabled key at once, its issued token too, and lets it work again once enabled', async () => {
    const { app, key, token } = await applicationWith(['USER']);
    const caller = withToken(token);
    expect((await caller.call('GET', '/metadata/workflow')).status).toBe(200);
    await admin.ok('POST', `/applications/${app.id}/accessKeys/${key.id}/status`);
    const stopped = await errorBody(await caller.call('GET', '/metadata/workflow'), 401);
    expect(stopped).toMatchObject({ error: 'INVALID_TOKEN' });
    const noToken = await errorBody(await tokenFor(server, key.id, key.secret), 401);
    expect(noToken.message).toMatch(/inactive/);
    await admin.ok('POST', `/applications/${app.id}/accessKeys/${key.id}/status`);
    expect((await caller.call('GET', '/metadata/workflow')).status).toBe(200);
    expect((await tokenFor(server, key.id, key.secret)).status).toBe(200);
  });

  it("stops a deleted key's old token, and those of a deleted application's keys", async () => {
    const first = await applicationWith(['USER']);
    await admin.ok('DELETE', `/applications/${first.app.id}/accessKeys/${first.key.id}`);
    expect(
      await errorBody(await withToken(first.token).call('GET', '/metadata/workflow'), 401),
    ).toMatchObject({
      error: 'INVALID_TOKEN',
    });
    expect((await errorBody(await tokenFor(server, first.key.id, first.key.secret), 401)).message).toBe(
      'Invalid key id or secret',
    );
    const second = await applicationWith(['USER']);
    await admin.ok('DELETE', `/applications/${second.app.id}`);
    await errorBody(await withToken(second.token).call('GET', '/metadata/workflow'), 401);
    await errorBody(await tokenFor(server, second.key.id, second.key.secret), 401);
  });

  it('refuses a wrong secret, a forged token and an expired one with 401', async () => {
    const { app, key, token } = await applicationWith(['ADMIN']);
    expect((await errorBody(await tokenFor(server, key.id, 'wrong-secret-0123456789'), 401)).message).toBe(
      'Invalid key id or secret',
    );
    const [header, payload] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forgedClaims = Buffer.from(JSON.stringify({ ...claims, app: 'someone-else' })).toString(
      'base64url',
    );
    for (const forged of [
      `${header}.${forgedClaims}.${token.split('.')[2]}`,
      `${header}.${payload}.AAAA`,
      'a.b.c',
    ]) {
      expect(await errorBody(await withToken(forged).call('GET', '/applications'), 401)).toMatchObject({
        error: 'INVALID_TOKEN',
      });
    }
    expect((await withToken(token).call('GET', `/applications/${app.id}`)).status).toBe(200);
    clock.advance(3_600_000);
    expect(await errorBody(await withToken(token).call('GET', '/applications'), 401)).toMatchObject({
      error: 'EXPIRED_TOKEN',
    });
    adminToken = undefined;
  });

  it('answers a forbidden change 403 and changes nothing', async () => {
    const { token } = await applicationWith(['USER']);
    const target = await applicationWith(['WORKER']);
    const user = withToken(token);
    const before = await admin.ok<App>('GET', `/applications/${target.app.id}`);
    for (const [method, path, body] of [
      ['POST', '/applications', { name: 'sneaky' }],
      ['PUT', `/applications/${target.app.id}`, { name: 'sneaky' }],
      ['DELETE', `/applications/${target.app.id}`],
      ['POST', `/applications/${target.app.id}/roles/ADMIN`],
      ['POST', `/applications/${target.app.id}/accessKeys`],
      ['POST', `/applications/${target.app.id}/accessKeys/${target.key.id}/status`],
      ['DELETE', `/applications/${target.app.id}/accessKeys/${target.key.id}`],
      ['PUT', `/applications/${target.app.id}/tags`, [{ key: 'k', value: 'v' }]],
    ] as [string, string, unknown?][]) {
      const error = await errorBody(await user.call(method, path, body), 403);
      expect(error.message).toContain('ADMIN');
    }
    expect(await admin.ok<App>('GET', `/applications/${target.app.id}`)).toEqual(before);
    expect(await admin.ok('GET', `/applications/${target.app.id}/accessKeys`)).toHaveLength(1);
    expect((await withToken(target.token).call('GET', '/metadata/workflow')).status).toBe(200);
  });

  it('lets an ADMIN stored key manage applications too', async () => {
    const { token } = await applicationWith(['ADMIN']);
    const other = withToken(token);
    const made = await other.ok<App>('POST', '/applications', { name: 'by a stored admin' });
    expect(made.createdBy).not.toBe(ADMIN_KEY.id);
    expect((await other.call('DELETE', `/applications/${made.id}`)).status).toBe(200);
  });

  it('opens the scheduler admin routes to ADMIN, keeps the admin token working, refuses the rest', async () => {
    const adminApp = await applicationWith(['ADMIN']);
    const user = await applicationWith(['USER']);
    const path = '/scheduler/admin/pause';
    expect(await withToken(adminApp.token).ok('GET', path)).toEqual({ paused: true });
    const refused = await errorBody(await withToken(user.token).call('GET', path), 403);
    expect(refused.message).toContain('needs the role ADMIN (or service.scheduler.admin.token');
    const bearer = { Authorization: 'Bearer scheduler-admin-token' };
    expect(
      (await withToken(user.token).call('GET', '/scheduler/admin/resume', undefined, bearer)).status,
    ).toBe(200);
    expect(await admin.ok('GET', '/scheduler/admin/resume')).toEqual({ paused: false });
  });
});
