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
});
