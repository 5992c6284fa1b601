/**
 * Key secrets and tokens never reach a log line: every request of the token exchange and of an
 * authenticated call, right and wrong, is made against a server logging at debug, and the lines are
 * searched for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { createLogger } from '../../lib/log/logger.ts';
import { type LocalServer, startLocalServer } from '../../lib/runtime/local.ts';

const SECRET = 'logged-never-secret-0123456789';
const WRONG = 'wrong-never-logged-0123456789';
const lines: string[] = [];
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer(
    configOf({
      'service.store': 'memory',
      'service.server.port': 0,
      'service.security.enabled': true,
      'service.security.keys[0].id': 'app',
      'service.security.keys[0].secret': SECRET,
    }),
    { logger: createLogger({ level: 'debug', format: 'json', write: (line) => lines.push(line) }) },
  );
});

afterAll(async () => {
  await server.close();
});

const post = (body: unknown) =>
  fetch(`${server.url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('logs', () => {
  it('hold neither key secrets nor tokens, whatever the requests', async () => {
    expect((await post({ keyId: 'app', keySecret: WRONG })).status).toBe(401);
    expect((await post({ keyId: 'app', keySecret: 7 })).status).toBe(400);
    const { token } = (await (await post({ keyId: 'app', keySecret: SECRET })).json()) as { token: string };
    const tampered = `${token.slice(0, -4)}AAAA`;
    for (const header of [token, tampered]) {
      await fetch(`${server.url}/api/metadata/workflow?access_token=${header}`, {
        headers: { 'x-authorization': header },
      });
      await fetch(`${server.url}/api/nothing?token=${header}`, { headers: { 'x-authorization': header } });
    }
    // Requests were refused, so something was logged (the check would pass vacuously otherwise).
    expect(lines.length).toBeGreaterThan(0);
    const all = lines.join('\n');
    for (const secret of [SECRET, WRONG, token, tampered, token.split('.')[2] as string]) {
      expect(all).not.toContain(secret);
    }
  });

  it("hold neither a stored access key's secret, shown once, nor its hash nor its tokens", async () => {
    const { token: admin } = (await (await post({ keyId: 'app', keySecret: SECRET })).json()) as {
      token: string;
    };
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}/api${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-authorization': admin },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const app = (await (await call('POST', '/applications', { name: 'logged' })).json()) as { id: string };
    await call('POST', `/applications/${app.id}/roles/WORKER`);
    const key = (await (await call('POST', `/applications/${app.id}/accessKeys`)).json()) as {
      id: string;
      secret: string;
    };
    const { token } = (await (await post({ keyId: key.id, keySecret: key.secret })).json()) as {
      token: string;
    };
    expect((await post({ keyId: key.id, keySecret: `${key.secret}x` })).status).toBe(401);
    // Refused (a WORKER may not start runs), then disabled: its token refused too.
    await fetch(`${server.url}/api/workflow/x`, { method: 'POST', headers: { 'x-authorization': token } });
    await call('POST', `/applications/${app.id}/accessKeys/${key.id}/status`);
    await fetch(`${server.url}/api/metadata/workflow`, { headers: { 'x-authorization': token } });
    const hash = server.services.stores.applications.get(app.id).then((a) => a?.keys[0]?.secretHash);
    expect(await hash).toMatch(/^scrypt\$/);
    const all = lines.join('\n');
    for (const secret of [key.secret, token, token.split('.')[2] as string, String(await hash)]) {
      expect(all).not.toContain(secret);
    }
  });
});
