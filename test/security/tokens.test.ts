import { describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { UnauthorizedError } from '../../lib/model/errors.ts';
import type { KeyDirectory, StoredKeyState } from '../../lib/security/api-auth.ts';
import { apiAuthOf } from '../../lib/security/api-auth.ts';
import { configuredKeys, keysFromSecretString } from '../../lib/security/api-keys.ts';
import { hashSecret } from '../../lib/security/secret-hash.ts';
import { issueStoredKeyToken, issueToken, verifiedSubject, verifyToken } from '../../lib/security/tokens.ts';

const first = { id: 'app-1', secret: 'first-secret-0123456789' };
const second = { id: 'app-2', secret: 'second-secret-0123456789' };
const HOUR = 3_600_000;
const now = Date.UTC(2026, 0, 1);

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    if (error instanceof UnauthorizedError) return error.code ?? 'none';
    throw error;
  }
  return undefined;
}

describe('tokens', () => {
  it('verify as the key they were issued to until they expire', () => {
    const token = issueToken(second, now, HOUR);
    expect(verifyToken(token, [first, second], now + HOUR - 1000)).toBe('app-2');
    expect(codeOf(() => verifyToken(token, [first, second], now + HOUR))).toBe('EXPIRED_TOKEN');
  });

  it('stop verifying once their key is removed (rotation revokes at once)', () => {
    const token = issueToken(first, now, HOUR);
    expect(codeOf(() => verifyToken(token, [second], now))).toBe('INVALID_TOKEN');
  });

  it('refuse a changed claim, a forged signature and garbage', () => {
    const token = issueToken(first, now, HOUR);
    const [header, payload, sig] = token.split('.') as [string, string, string];
    const longer = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), exp: 9e9 }),
    ).toString('base64url');
    const otherKeySig = issueToken({ id: 'app-1', secret: 'someone-elses-secret-000' }, now, HOUR).split(
      '.',
    )[2];
    for (const bad of [
      `${header}.${longer}.${sig}`,
      `${header}.${payload}.${otherKeySig}`,
      `${header}.${payload}.`,
      'not-a-token',
      '',
      'a.b.c',
    ]) {
      expect(codeOf(() => verifyToken(bad, [first, second], now))).toBe('INVALID_TOKEN');
    }
  });
});

describe("stored keys' tokens", () => {
  const stored = { id: 'stored-1', applicationId: 'app-9' };

  it('are signed by a configured key for a stored key and its application', () => {
    const token = issueStoredKeyToken(first, stored, now, HOUR);
    expect(verifiedSubject(token, [second, first], now)).toEqual({
      keyId: 'stored-1',
      applicationId: 'app-9',
    });
    expect(codeOf(() => verifiedSubject(token, [first], now + HOUR))).toBe('EXPIRED_TOKEN');
    // Their signer gone (rotated out), they stop.
    expect(codeOf(() => verifiedSubject(token, [second], now))).toBe('INVALID_TOKEN');
    // Never taken for the configured key's own token.
    expect(codeOf(() => verifyToken(token, [first], now))).toBe('INVALID_TOKEN');
  });

  it('refuse another application, another key, a configured key claim and a raw-secret signature', () => {
    const token = issueStoredKeyToken(first, stored, now, HOUR);
    const [header, payload, sig] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const changed = (extra: Record<string, unknown>) =>
      `${header}.${Buffer.from(JSON.stringify({ ...claims, ...extra })).toString('base64url')}.${sig}`;
    const { app: _app, ...configuredClaims } = claims;
    const asConfigured = `${header}.${Buffer.from(JSON.stringify({ ...configuredClaims, sub: first.id })).toString('base64url')}.${sig}`;
    // A stored key's claims signed with the configured key's raw secret (not the derived one).
    const rawSigned = issueToken(first, now, HOUR).split('.')[2];
    for (const bad of [
      changed({ app: 'app-other' }),
      changed({ sub: 'stored-2' }),
      changed({ app: '' }),
      changed({ app: 7 }),
      asConfigured,
      `${header}.${payload}.${rawSigned}`,
    ]) {
      expect(codeOf(() => verifiedSubject(bad, [first], now))).toBe('INVALID_TOKEN');
    }
  });
});

describe('the token exchange with stored keys', () => {
  const clock = new ManualClock(now);
  const states = new Map<string, StoredKeyState>();
  const directory: KeyDirectory = {
    key: async (keyId) => states.get(keyId),
    keyOf: async (applicationId, keyId) => {
      const state = states.get(keyId);
      return state?.applicationId === applicationId ? state : undefined;
    },
  };
  const auth = apiAuthOf(
    configOf({
      'service.security.enabled': true,
      'service.security.keys[0].id': first.id,
      'service.security.keys[0].secret': first.secret,
    }),
    clock,
    undefined,
    directory,
  );
  const withToken = (token: string) =>
    new Request('http://x/api/x', { headers: { 'x-authorization': token } });
  const SECRET = 'stored-secret-0123456789abcdef';

  it("issues a token for a stored key's secret, whose caller has the roles of the moment", async () => {
    const state: StoredKeyState = {
      id: 'sk-1',
      applicationId: 'app-1',
      active: true,
      secretHash: await hashSecret(SECRET),
      roles: ['WORKER'],
    };
    states.set(state.id, state);
    const token = await auth.token('sk-1', SECRET);
    await expect(auth.authenticate(withToken(token))).resolves.toEqual({
      keyId: 'sk-1',
      applicationId: 'app-1',
      roles: ['WORKER'],
    });
    states.set(state.id, { ...state, roles: ['WORKER', 'USER'] });
    await expect(auth.authenticate(withToken(token))).resolves.toMatchObject({ roles: ['WORKER', 'USER'] });
    states.set(state.id, { ...state, active: false });
    await expect(auth.authenticate(withToken(token))).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(auth.token('sk-1', SECRET)).rejects.toThrow(/inactive/);
    states.delete(state.id);
    await expect(auth.authenticate(withToken(token))).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(auth.token('sk-1', SECRET)).rejects.toThrow('Invalid key id or secret');
  });

  it('refuses a wrong secret and an unknown id alike', async () => {
    states.set('sk-2', {
      id: 'sk-2',
      applicationId: 'app-2',
      active: true,
      secretHash: await hashSecret(SECRET),
      roles: [],
    });
    await expect(auth.token('sk-2', 'another-secret-0123456789')).rejects.toThrow('Invalid key id or secret');
    await expect(auth.token('sk-none', SECRET)).rejects.toThrow('Invalid key id or secret');
  });
});

describe('keys', () => {
  it('are read from service.security.keys[n] in order', () => {
    const config = configOf({
      'service.security.keys[1].id': second.id,
      'service.security.keys[1].secret': second.secret,
      'service.security.keys[0].id': first.id,
      'service.security.keys[0].secret': first.secret,
    });
    expect(configuredKeys(config)).toEqual([first, second]);
  });

  it('refuse a short secret, a missing id and a repeated id', () => {
    expect(() => keysFromSecretString(JSON.stringify({ id: 'a', secret: 'short' }), 'secret')).toThrow(
      /at least 16 characters/,
    );
    expect(() => keysFromSecretString(JSON.stringify({ secret: first.secret }), 'secret')).toThrow(/no id/);
    expect(() => keysFromSecretString(JSON.stringify([first, first]), 'secret')).toThrow(/used twice/);
    expect(() => keysFromSecretString('{', 'secret')).toThrow(/not JSON/);
  });

  it('come from a secret as one key or a list of them', () => {
    expect(keysFromSecretString(JSON.stringify(first), 's')).toEqual([first]);
    expect(keysFromSecretString(JSON.stringify([second, first]), 's')).toEqual([second, first]);
  });

  it('are required when security is enabled', () => {
    expect(() => apiAuthOf(configOf({ 'service.security.enabled': true }), new ManualClock())).toThrow(
      /needs at least one key/,
    );
  });
});

describe('the token exchange', () => {
  const clock = new ManualClock(now);
  const auth = apiAuthOf(
    configOf({
      'service.security.enabled': true,
      'service.security.token-ttl': '10m',
      'service.security.keys[0].id': first.id,
      'service.security.keys[0].secret': first.secret,
      'service.security.keys[1].id': second.id,
      'service.security.keys[1].secret': second.secret,
    }),
    clock,
  );
  const withToken = (token: string) =>
    new Request('http://x/api/x', { headers: { 'x-authorization': token } });

  it('issues a token to any configured key, valid for token-ttl, whose caller is ADMIN', async () => {
    const token = await auth.token(second.id, second.secret);
    await expect(auth.authenticate(withToken(token))).resolves.toEqual({
      keyId: second.id,
      roles: ['ADMIN'],
    });
    clock.advance(10 * 60_000);
    await expect(auth.authenticate(withToken(token))).rejects.toMatchObject({ code: 'EXPIRED_TOKEN' });
  });

  it('issues tokens that live one hour when token-ttl is left at its default', async () => {
    const defaults = apiAuthOf(
      configOf({
        'service.security.enabled': true,
        'service.security.keys[0].id': first.id,
        'service.security.keys[0].secret': first.secret,
      }),
      clock,
    );
    const token = await defaults.token(first.id, first.secret);
    clock.advance(HOUR - 1000);
    await expect(defaults.authenticate(withToken(token))).resolves.toMatchObject({ keyId: first.id });
    clock.advance(1000);
    await expect(defaults.authenticate(withToken(token))).rejects.toMatchObject({ code: 'EXPIRED_TOKEN' });
  });

  it('refuses a wrong secret, another key s secret and an unknown id', async () => {
    await expect(auth.token(first.id, 'wrong-secret-0123456789')).rejects.toThrow('Invalid key id or secret');
    await expect(auth.token(first.id, second.secret)).rejects.toThrow(UnauthorizedError);
    await expect(auth.token('nobody', first.secret)).rejects.toThrow(UnauthorizedError);
  });

  it('refuses a request without a token', async () => {
    await expect(auth.authenticate(new Request('http://x/api/x'))).rejects.toThrow(/Missing token/);
  });
});
