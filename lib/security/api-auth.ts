/**
 * Authentication of the API as the Conductor SDKs speak it (docs/api.md "Authentication"): with
 * `service.security.enabled`, POST /api/token exchanges an application key for a short-lived token,
 * and every other route but the open ones (health, version, the API document) requires it in
 * X-Authorization. Off, nothing is checked and POST /api/token does not exist (404), which the SDKs
 * read as "no auth". Secrets and tokens are never logged nor repeated in an error message.
 */
import type { ServiceConfig } from '../config/service-config.ts';
import type { Clock } from '../model/clock.ts';
import { UnauthorizedError } from '../model/errors.ts';
import { type ApiKey, configuredKeys, type KeySource } from './api-keys.ts';
import { constantTimeEqual, issueToken, verifyToken } from './tokens.ts';

/** The header the SDKs send the token in. */
export const TOKEN_HEADER = 'x-authorization';

export interface ApiAuth {
  readonly enabled: boolean;
  /** A token for a key id and secret; UnauthorizedError when they do not match a key. */
  token(keyId: string, keySecret: string): Promise<string>;
  /** Passes a request carrying a valid token; throws UnauthorizedError otherwise. */
  authenticate(request: Request): Promise<void>;
}

export const OPEN_API: ApiAuth = {
  enabled: false,
  token: () => Promise.reject(new Error('Authentication is off')),
  authenticate: () => Promise.resolve(),
};

/**
 * The host's authentication: open unless `service.security.enabled`. Keys come from `keys` when a
 * host gives a source (Secrets Manager on AWS), else from the configuration, where at least one is
 * then required: a secured service nobody can obtain a token for would only fail later.
 */
export function apiAuthOf(config: ServiceConfig, clock: Clock, keys?: KeySource): ApiAuth {
  if (!config.boolean('service.security.enabled')) return OPEN_API;
  let source = keys;
  if (!source) {
    const configured = configuredKeys(config);
    if (configured.length === 0) {
      throw new Error(
        'service.security.enabled needs at least one key: service.security.keys[0].id and .secret',
      );
    }
    source = () => Promise.resolve(configured);
  }
  return new KeyAuth(source, clock, config.number('service.security.token-ttl'));
}

class KeyAuth implements ApiAuth {
  readonly enabled = true;

  constructor(
    private readonly keys: KeySource,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  async token(keyId: string, keySecret: string): Promise<string> {
    const keys = await this.keys();
    // Every key is compared, matched or not, so the answer's timing does not tell which ids exist.
    let found: ApiKey | undefined;
    for (const key of keys) {
      const idMatches = constantTimeEqual(key.id, keyId);
      const secretMatches = constantTimeEqual(key.secret, keySecret);
      if (idMatches && secretMatches) found = key;
    }
    if (!found) throw new UnauthorizedError('Invalid key id or secret');
    return issueToken(found, this.clock.now(), this.ttlMs);
  }

  async authenticate(request: Request): Promise<void> {
    const token = request.headers.get(TOKEN_HEADER);
    if (!token)
      throw new UnauthorizedError(`Missing token: send the one POST /api/token issues in X-Authorization`);
    verifyToken(token, await this.keys(), this.clock.now());
  }
}
