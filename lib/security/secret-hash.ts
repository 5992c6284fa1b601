/**
 * How a stored access key's secret is kept: only as a slow salted hash (scrypt, node:crypto), shown
 * to its creator once and never stored, logged or answered again. A hash is
 * `scrypt$<N>$<r>$<p>$<salt, base64url>$<hash, base64url>`, so the cost can rise later without
 * invalidating the keys already made. Checking one costs about 50 ms of a libuv worker thread (not
 * the event loop); the SDKs do it once per token, every 36 minutes.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt's cost: 2^14 iterations over 16 MiB (r = 8), OWASP's minimum for scrypt. */
const COST: Required<Pick<ScryptOptions, 'N' | 'r' | 'p'>> = { N: 16_384, r: 8, p: 1 };
const SALT_BYTES = 16;
const HASH_BYTES = 32;

function derive(secret: string, salt: Buffer, cost: typeof COST, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, length, { ...cost, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** A new salted hash of a secret. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(secret, salt, COST, HASH_BYTES);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/**
 * A hash no secret matches, checked when a key id is unknown, so the answer takes as long whether
 * the id exists or not.
 */
export const NO_SECRET_HASH = `scrypt$${COST.N}$${COST.r}$${COST.p}$${Buffer.alloc(SALT_BYTES).toString('base64url')}$`;

/** Whether a secret is the one a stored hash was made from (compared in constant time). */
export async function secretMatches(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  if (![cost.N, cost.r, cost.p].every((v) => Number.isSafeInteger(v) && v > 0)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), cost, expected.length || HASH_BYTES);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
