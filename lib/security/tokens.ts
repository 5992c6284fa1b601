/**
 * The tokens POST /api/token issues: compact JWTs (HS256). A configured key's token is signed with
 * that key's secret and names it in `kid`, so removing the key revokes its tokens at once. A stored
 * key's secret is kept only as a hash, so its token is signed with a secret derived from the first
 * configured key (named in `kid`) and carries the key and its application (`sub`, `app`); whether
 * that key is still active, and what its application may do, is read from the store on every
 * request (lib/security/api-auth.ts), so disabling or deleting it stops its tokens at once too. The
 * SDKs treat a token as opaque and only send it back in X-Authorization.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../model/errors.ts';
import type { ApiKey } from './api-keys.ts';

interface Claims {
  /** The key the token was issued to. */
  sub: string;
  /** A stored key's application; absent for a configured key. */
  app?: string;
  /** Issued at and expiry, in seconds since the epoch (JWT). */
  iat: number;
  exp: number;
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

function signature(secret: string | Buffer, signingInput: string): Buffer {
  return createHmac('sha256', secret).update(signingInput).digest();
}

/** Equal without leaking where two values differ: both are hashed first, so lengths match too. */
export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const digest = (value: string | Buffer) => createHmac('sha256', 'compare').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** What signs a stored key's tokens: a secret derived from a configured key's, for that use only. */
function storedKeySigner(signer: ApiKey): Buffer {
  return createHmac('sha256', signer.secret).update('conductor stored access key tokens').digest();
}

function signed(kid: string, claims: Claims, secret: string | Buffer): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid }));
  const signingInput = `${header}.${base64url(JSON.stringify(claims))}`;
  return `${signingInput}.${base64url(signature(secret, signingInput))}`;
}

const times = (nowMs: number, ttlMs: number) => ({
  iat: Math.floor(nowMs / 1000),
  exp: Math.floor((nowMs + ttlMs) / 1000),
});

/** A configured key's token, signed with its secret. */
export function issueToken(key: ApiKey, nowMs: number, ttlMs: number): string {
  return signed(key.id, { sub: key.id, ...times(nowMs, ttlMs) }, key.secret);
}

/** A stored key's token, signed for it by a configured key (`signer`). */
export function issueStoredKeyToken(
  signer: ApiKey,
  key: { id: string; applicationId: string },
  nowMs: number,
  ttlMs: number,
): string {
  return signed(
    signer.id,
    { sub: key.id, app: key.applicationId, ...times(nowMs, ttlMs) },
    storedKeySigner(signer),
  );
}

/** Whom a valid token was issued to: a configured key, or a stored key and its application. */
export interface TokenSubject {
  keyId: string;
  applicationId?: string;
}

/**
 * Whom a token was issued to, from its signature and claims alone; throws UnauthorizedError
 * (INVALID_TOKEN or EXPIRED_TOKEN) otherwise. A stored key's current state is the caller's to check.
 */
export function verifiedSubject(token: string, keys: readonly ApiKey[], nowMs: number): TokenSubject {
  const invalid = () => new UnauthorizedError('Invalid token', 'INVALID_TOKEN');
  const parts = token.split('.');
  if (parts.length !== 3) throw invalid();
  const [header, payload, sig] = parts as [string, string, string];
  const head = parseSegment(header);
  const key = keys.find((k) => k.id === head?.kid);
  if (!key || head?.alg !== 'HS256') throw invalid();
  const claims = parseSegment(payload);
  const app = claims?.app;
  if (app !== undefined && (typeof app !== 'string' || app === '')) throw invalid();
  const secret = app === undefined ? key.secret : storedKeySigner(key);
  if (!constantTimeEqual(Buffer.from(sig, 'base64url'), signature(secret, `${header}.${payload}`))) {
    throw invalid();
  }
  if (typeof claims?.sub !== 'string' || typeof claims.exp !== 'number') throw invalid();
  if (app === undefined && claims.sub !== key.id) throw invalid();
  if (claims.exp * 1000 <= nowMs) throw new UnauthorizedError('Token expired', 'EXPIRED_TOKEN');
  return app === undefined ? { keyId: key.id } : { keyId: claims.sub, applicationId: app };
}

/** The configured key a token was issued to (stored keys' tokens are refused). */
export function verifyToken(token: string, keys: readonly ApiKey[], nowMs: number): string {
  const subject = verifiedSubject(token, keys, nowMs);
  if (subject.applicationId !== undefined) throw new UnauthorizedError('Invalid token', 'INVALID_TOKEN');
  return subject.keyId;
}

function parseSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
