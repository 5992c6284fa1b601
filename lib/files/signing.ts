/**
 * Signed content URLs of the service backend (docs/api.md "Authentication" 3, "File storage
 * configuration" rules 2-3). A URL carries `op`, `exp` (epoch seconds), `kid` and `sig`:
 * base64url HMAC-SHA256, with the key `kid` names, of `op \n path \n exp`, where path is the
 * decoded content path (`/api/files/content/<workflowId>/<fileId>`), so the signature does not
 * depend on how a proxy re-encodes the URL. The first key signs; every key verifies, so a key can
 * be rotated in before and out after the URLs it signed expire.
 *
 * Signed URLs are bearer credentials: nothing here ever puts a signature or a URL into an error
 * message, and the messages do not say which check failed beyond what the caller already knows.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ForbiddenError, MethodNotAllowedError } from '../model/errors.ts';
import type { SigningKey } from './settings.ts';

export type ContentOp = 'upload' | 'download';

const OPS: readonly ContentOp[] = ['upload', 'download'];

export class UrlSigner {
  private readonly byId: ReadonlyMap<string, SigningKey>;

  constructor(private readonly keys: readonly SigningKey[]) {
    this.byId = new Map(keys.map((key) => [key.id, key]));
  }

  get enabled(): boolean {
    return this.keys.length > 0;
  }

  /** The query parameters of a URL for `op` on `path`, valid until `expiresAt` (epoch ms). */
  sign(op: ContentOp, path: string, expiresAt: number): URLSearchParams {
    const key = this.keys[0];
    if (!key) throw new Error('Signing is off: no key');
    const exp = String(Math.floor(expiresAt / 1000));
    return new URLSearchParams({ op, exp, kid: key.id, sig: mac(key.secret, op, path, exp) });
  }

  /**
   * Checks a request's signature for `op` on `path` at `now`: 403 when it is missing, malformed,
   * signed by no configured key, wrong or expired; 405 when it is a valid URL for the other op.
   */
  verify(query: URLSearchParams, op: ContentOp, path: string, now: number): void {
    const given = {
      op: query.get('op'),
      exp: query.get('exp'),
      kid: query.get('kid'),
      sig: query.get('sig'),
    };
    if (!given.op || !given.exp || !given.kid || !given.sig) {
      throw new ForbiddenError('This content URL must be signed; ask for a new upload or download URL');
    }
    const key = this.byId.get(given.kid);
    if (!key || !/^\d{1,12}$/.test(given.exp) || !OPS.includes(given.op as ContentOp)) {
      throw invalid();
    }
    const expected = Buffer.from(mac(key.secret, given.op, path, given.exp));
    const actual = Buffer.from(given.sig);
    // Constant time: how much of a guessed signature matches must not show in the answer's timing.
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw invalid();
    if (Number(given.exp) * 1000 < now) {
      throw new ForbiddenError('The signed content URL has expired; ask for a new one');
    }
    if (given.op !== op) {
      throw new MethodNotAllowedError(`This signed content URL is for ${given.op}, not ${op}`);
    }
  }
}

function mac(secret: string, op: string, path: string, exp: string): string {
  return createHmac('sha256', secret).update(`${op}\n${path}\n${exp}`).digest('base64url');
}

const invalid = () => new ForbiddenError('The content URL signature is invalid');
