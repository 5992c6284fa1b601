/**
 * AWS adapter: the API keys held in one Secrets Manager secret (`service.security.keys-secret`,
 * created by the CDK stack), as `{"id","secret"}` or a list of them. Read on first use and again
 * after REFRESH_MS, so a rotated secret reaches warm functions within minutes without a redeploy;
 * a failed refresh keeps serving the keys already read.
 */
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Clock } from '../../model/clock.ts';
import { type ApiKey, type KeySource, keysFromSecretString } from '../api-keys.ts';

/** How long keys read from the secret are used before it is read again. */
export const REFRESH_MS = 5 * 60_000;

export function secretsManagerKeys(client: SecretsManagerClient, secretId: string, clock: Clock): KeySource {
  let cached: { keys: readonly ApiKey[]; readAt: number } | undefined;
  let reading: Promise<readonly ApiKey[]> | undefined;
  const read = async (): Promise<readonly ApiKey[]> => {
    const answer = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (answer.SecretString === undefined) throw new Error(`Secret ${secretId} holds no string`);
    const keys = keysFromSecretString(answer.SecretString, `Secret ${secretId}`);
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
