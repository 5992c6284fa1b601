/**
 * Authentication of the API as the Conductor SDKs speak it (docs/api.md "Authentication"): with
 * `service.security.enabled`, POST /api/token exchanges an application key for a short-lived token,
 * and every other route but the open ones (health, version, the API document) requires it in
 * X-Authorization. Off, nothing is checked and POST /api/token does not exist (404), which the SDKs
 * read as "no auth". Secrets and tokens are never logged nor repeated in an error message.
 *
 * Two kinds of keys: those configured (`service.security.keys[n]`, or the Secrets Manager secret on
 * AWS), which are ADMIN, and access keys of applications held in the store (lib/applications),
 * whose roles are their application's. A stored key's token is checked against the key's state in
 * the store on every request: a key disabled or deleted, or a role removed, counts from the next
 * request on, on every host at once (docs/security.md "Keys in the store").
 */
import type { ServiceConfig } from '../config/service-config.ts';
import type { Clock } from '../model/clock.ts';
import { quote, UnauthorizedError } from '../model/errors.ts';
import { type ApiKey, configuredKeys, type KeySource } from './api-keys.ts';
import { configuredPrincipal, type Principal, type Role } from './roles.ts';
import { NO_SECRET_HASH, secretMatches } from './secret-hash.ts';
import { constantTimeEqual, issueStoredKeyToken, issueToken, verifiedSubject } from './tokens.ts';

/** The header the SDKs send the token in. */
export const TOKEN_HEADER = 'x-authorization';

export interface ApiAuth {
  readonly enabled: boolean;
  /** A token for a key id and secret; UnauthorizedError when they do not match an active key. */
  token(keyId: string, keySecret: string): Promise<string>;
  /**
   * Who a request carrying a valid token is, with the roles its key holds now; throws
   * UnauthorizedError otherwise. Undefined when authentication is off (nobody is checked).
   */
  authenticate(request: Request): Promise<Principal | undefined>;
}

export const OPEN_API: ApiAuth = {
  enabled: false,
  token: () => Promise.reject(new Error('Authentication is off')),
  authenticate: () => Promise.resolve(undefined),
};

/** A stored access key as authentication reads it: its state now and its application's roles. */
export interface StoredKeyState {
  id: string;
  applicationId: string;
  active: boolean;
  /** lib/security/secret-hash.ts */
  secretHash: string;
  roles: readonly Role[];
}

/** The access keys held in the store (the applications capability gives them). */
export interface KeyDirectory {
  /** A stored key by its id; undefined when no application holds it. */
  key(keyId: string): Promise<StoredKeyState | undefined>;
  /** A key of this application, read as it is now; undefined when either is gone. */
  keyOf(applicationId: string, keyId: string): Promise<StoredKeyState | undefined>;
}

/**
 * The host's authentication: open unless `service.security.enabled`. Keys come from `keys` when a
 * host gives a source (Secrets Manager on AWS), else from the configuration, where at least one is
 * then required: the configured keys are the administrators, and the first of them signs the
 * tokens of stored keys. `directory` holds the stored access keys, when the host has them.
 */
export function apiAuthOf(
  config: ServiceConfig,
  clock: Clock,
  keys?: KeySource,
  directory?: KeyDirectory,
): ApiAuth {
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
  return new KeyAuth(source, clock, config.number('service.security.token-ttl'), directory);
}

class KeyAuth implements ApiAuth {
  readonly enabled = true;

  constructor(
    private readonly keys: KeySource,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly directory: KeyDirectory | undefined,
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
    if (found) return issueToken(found, this.clock.now(), this.ttlMs);
    const stored = await this.directory?.key(keyId);
    // A hash is checked whether the key exists or not: the time taken tells nothing either.
    const matches = await secretMatches(keySecret, stored?.secretHash ?? NO_SECRET_HASH);
    const signer = keys[0];
    if (!stored || !matches || !signer) throw new UnauthorizedError('Invalid key id or secret');
    if (!stored.active) throw new UnauthorizedError(`Access key ${quote(keyId)} is inactive`);
    return issueStoredKeyToken(signer, stored, this.clock.now(), this.ttlMs);
  }

  async authenticate(request: Request): Promise<Principal> {
    const token = request.headers.get(TOKEN_HEADER);
    if (!token)
      throw new UnauthorizedError(`Missing token: send the one POST /api/token issues in X-Authorization`);
    const subject = verifiedSubject(token, await this.keys(), this.clock.now());
    if (subject.applicationId === undefined) return configuredPrincipal(subject.keyId);
    // Read on every request: a key disabled or deleted stops working at once, its tokens too.
    const key = await this.directory?.keyOf(subject.applicationId, subject.keyId);
    if (!key?.active) {
      throw new UnauthorizedError('The access key of this token is inactive or deleted', 'INVALID_TOKEN');
    }
    return { keyId: key.id, applicationId: key.applicationId, roles: key.roles };
  }
}
