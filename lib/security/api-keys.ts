/**
 * Application keys: the keyId/keySecret pairs the Conductor SDKs send to POST /api/token. Given as
 * `service.security.keys[n].id` / `.secret` locally (as the file-signing keys are), or as one AWS
 * Secrets Manager secret on AWS (lib/security/refreshing-keys.ts). Every configured key may obtain
 * tokens; rotation is as for file-signing keys (docs/api.md "File storage configuration" rule 2): add the new
 * key first, move the clients to it, then remove the old one, whose tokens stop verifying at once.
 */
import type { ServiceConfig } from '../config/service-config.ts';

export interface ApiKey {
  readonly id: string;
  readonly secret: string;
}

/** Shortest accepted secret: a token's HMAC is only as strong as the secret that keys it. */
export const MIN_SECRET_LENGTH = 16;

/** Where the keys come from; asked on every token request and check, so a source may cache and refresh. */
export type KeySource = () => Promise<readonly ApiKey[]>;

/** A list of keys as configured or stored, checked: ids unique, secrets long enough. */
export function checkedKeys(entries: readonly Record<string, unknown>[], where: string): ApiKey[] {
  const keys: ApiKey[] = [];
  entries.forEach((entry, index) => {
    const { id, secret } = entry;
    if (typeof id !== 'string' || id === '') throw new Error(`${where}: key ${index} has no id`);
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
      throw new Error(`${where}: the secret of key '${id}' must be at least ${MIN_SECRET_LENGTH} characters`);
    }
    if (keys.some((key) => key.id === id)) throw new Error(`${where}: key id '${id}' is used twice`);
    keys.push({ id, secret });
  });
  return keys;
}

/** The keys of `service.security.keys[n]`, checked. */
export function configuredKeys(config: ServiceConfig): ApiKey[] {
  return checkedKeys(config.list('service.security.keys'), 'service.security.keys');
}

/**
 * The keys held in a Secrets Manager secret string: one `{"id","secret"}` (what the CDK stack
 * creates) or a list of them (during a rotation).
 */
export function keysFromSecretString(text: string, where: string): ApiKey[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${where}: the secret is not JSON`);
  }
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((entry) => typeof entry === 'object' && entry !== null)) {
    throw new Error(`${where}: the secret must be {"id","secret"} or a list of them`);
  }
  return checkedKeys(list as Record<string, unknown>[], where);
}
