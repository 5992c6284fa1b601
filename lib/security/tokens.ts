/**
 * The tokens POST /api/token issues: compact JWTs (HS256), signed with the secret of the key they
 * were issued to and naming it in `kid`, so removing a key revokes its tokens at once. The SDKs
 * treat a token as opaque and only send it back in X-Authorization.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../model/errors.ts';
import type { ApiKey } from './api-keys.ts';

interface Claims {
  /** The key the token was issued to. */
  sub: string;
  /** Issued at and expiry, in seconds since the epoch (JWT). */
  iat: number;
  exp: number;
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

function signature(secret: string, signingInput: string): Buffer {
  return createHmac('sha256', secret).update(signingInput).digest();
}

/** Equal without leaking where two values differ: both are hashed first, so lengths match too. */
export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const digest = (value: string | Buffer) => createHmac('sha256', 'compare').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export function issueToken(key: ApiKey, nowMs: number, ttlMs: number): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: key.id }));
  const claims: Claims = {
    sub: key.id,
    iat: Math.floor(nowMs / 1000),
    exp: Math.floor((nowMs + ttlMs) / 1000),
  };
  const signingInput = `${header}.${base64url(JSON.stringify(claims))}`;
  return `${signingInput}.${base64url(signature(key.secret, signingInput))}`;
}

/** The key a token was issued to; throws UnauthorizedError (INVALID_TOKEN or EXPIRED_TOKEN) otherwise. */
export function verifyToken(token: string, keys: readonly ApiKey[], nowMs: number): string {
  const invalid = () => new UnauthorizedError('Invalid token', 'INVALID_TOKEN');
  const parts = token.split('.');
  if (parts.length !== 3) throw invalid();
  const [header, payload, sig] = parts as [string, string, string];
  const head = parseSegment(header);
  const key = keys.find((k) => k.id === head?.kid);
  if (!key || head?.alg !== 'HS256') throw invalid();
  if (!constantTimeEqual(Buffer.from(sig, 'base64url'), signature(key.secret, `${header}.${payload}`))) {
    throw invalid();
  }
  const claims = parseSegment(payload);
  if (claims?.sub !== key.id || typeof claims.exp !== 'number') throw invalid();
  if (claims.exp * 1000 <= nowMs) throw new UnauthorizedError('Token expired', 'EXPIRED_TOKEN');
  return key.id;
}

function parseSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
