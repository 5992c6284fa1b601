/**
 * The Secrets Manager key source (lib/security/refreshing-keys.ts over lib/runtime/aws-http.ts's
 * secretReader) against a stand-in client at the SDK edge (no Secrets Manager emulator runs here): one read
 * per refresh period, the new value after it, the old keys while a refresh fails.
 */
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { secretReader } from '../../lib/runtime/aws-http.ts';
import { REFRESH_MS, refreshingKeys } from '../../lib/security/refreshing-keys.ts';

const secretsManagerKeys = (client: SecretsManagerClient, secretId: string, clock: ManualClock) =>
  refreshingKeys(secretReader(client, secretId), secretId, clock);

const first = { id: 'key-1', secret: 'first-secret-0123456789' };
const second = { id: 'key-2', secret: 'second-secret-0123456789' };

function fakeClient(answers: (string | Error)[]) {
  const asked: unknown[] = [];
  const client = {
    send: async (command: { input: unknown }) => {
      asked.push(command.input);
      const next = answers.shift();
      if (next instanceof Error || next === undefined) throw next ?? new Error('no answer left');
      return { SecretString: next };
    },
  };
  return { client: client as unknown as SecretsManagerClient, asked };
}

describe('keys from Secrets Manager', () => {
  it('are read once per refresh period, by the secret named, and re-read after it', async () => {
    const clock = new ManualClock();
    const { client, asked } = fakeClient([JSON.stringify(first), JSON.stringify([second, first])]);
    const keys = secretsManagerKeys(client, 'conductor-api-keys', clock);
    expect(await keys()).toEqual([first]);
    clock.advance(REFRESH_MS - 1);
    expect(await keys()).toEqual([first]);
    expect(asked).toEqual([{ SecretId: 'conductor-api-keys' }]);
    clock.advance(1);
    expect(await keys()).toEqual([second, first]);
    expect(asked).toHaveLength(2);
  });

  it('keep the keys already read when a refresh fails, and fail when there are none', async () => {
    const clock = new ManualClock();
    const { client } = fakeClient([new Error('throttled'), JSON.stringify(first), new Error('down')]);
    const keys = secretsManagerKeys(client, 's', clock);
    await expect(keys()).rejects.toThrow('throttled');
    expect(await keys()).toEqual([first]);
    clock.advance(REFRESH_MS);
    expect(await keys()).toEqual([first]);
  });

  it('refuse a secret that is not keys', async () => {
    const { client } = fakeClient(['{"id":"k","secret":"short"}']);
    await expect(secretsManagerKeys(client, 's', new ManualClock())()).rejects.toThrow(/at least 16/);
  });
});
