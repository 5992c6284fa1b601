/**
 * The API keys held in one secret (on AWS a Secrets Manager secret, `service.security.keys-secret`,
 * created by the CDK stack; read through `readSecret`, which lib/runtime/aws.ts supplies), as
 * `{"id","secret"}` or a list of them. Read on first use and again after REFRESH_MS, so a rotated
 * secret reaches warm functions within minutes without a redeploy; a failed refresh keeps serving
 * the keys already read.
 */
import type { Clock } from '../model/clock.ts';
import { type ApiKey, type KeySource, keysFromSecretString } from './api-keys.ts';

/** How long keys read from the secret are used before it is read again. */
export const REFRESH_MS = 5 * 60_000;

/** `readSecret` answers the secret's string (undefined: the secret holds none); `name` names it in errors. */
export function refreshingKeys(
  readSecret: () => Promise<string | undefined>,
  name: string,
  clock: Clock,
): KeySource {
  let cached: { keys: readonly ApiKey[]; readAt: number } | undefined;
  let reading: Promise<readonly ApiKey[]> | undefined;
  const read = async (): Promise<readonly ApiKey[]> => {
    const text = await readSecret();
    if (text === undefined) throw new Error(`Secret ${name} holds no string`);
    const keys = keysFromSecretString(text, `Secret ${name}`);
    cached = { keys, readAt: clock.now() };
    return keys;
  };
  return async () => {
    if (cached && clock.now() - cached.readAt < REFRESH_MS) return cached.keys;
    reading ??= read().finally(() => {
      reading = undefined;
    });
    if (!cached) return reading;
    return reading.catch(() => (cached as { keys: readonly ApiKey[] }).keys);
  };
}
