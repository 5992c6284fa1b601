/**
 * File storage configuration is read at start: a wrong backend, signing without keys, a key without
 * its secret, or a repeated key id stops the start with a message naming the property.
 */
import { describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { fileSettingsOf } from '../../lib/files/settings.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { startLocalServer } from '../../lib/runtime/local.ts';

const KEYS = 'service.file-storage.service.signing.keys';
const base = { 'service.file-storage.enabled': true };

describe('file storage settings', () => {
  it('defaults: service backend, temp directory, 100 MiB, one-hour URLs, 64 MiB multipart threshold', () => {
    const settings = fileSettingsOf(configOf(base));
    expect(settings.backend).toBe('service');
    expect(settings.directory).toMatch(/service\/files-uploaded$/);
    expect(settings.maxSize).toBe(104_857_600);
    expect(settings.urlLifetimeMs).toBe(3_600_000);
    expect(settings.multipartThreshold).toBe(64 * 1024 * 1024);
    expect(settings.signingKeys).toEqual([]);
  });

  it('refuses an unknown backend type, naming the property', () => {
    expect(() => configOf({ ...base, 'service.file-storage.type': 'ftp' })).toThrow(
      /service\.file-storage\.type/,
    );
  });

  it.each([
    [{}, /signing\.enabled is true but no/],
    [{ [`${KEYS}[0].id`]: 'a' }, /keys\[0\]\.secret is not set/],
    [{ [`${KEYS}[0].secret`]: 's' }, /keys\[0\]\.id is not set/],
    [
      {
        [`${KEYS}[0].id`]: 'a',
        [`${KEYS}[0].secret`]: 's',
        [`${KEYS}[1].id`]: 'a',
        [`${KEYS}[1].secret`]: 't',
      },
      /keys\[1\]\.id repeats the key id 'a'/,
    ],
  ])('stops the start when signing is on with bad keys (%j)', async (keys, message) => {
    const config = configOf({
      ...base,
      'service.store': 'memory',
      'service.server.port': 0,
      'service.file-storage.service.signing.enabled': true,
      ...keys,
    });
    await expect(startLocalServer(config, { logger: silentLogger })).rejects.toThrow(message);
  });

  it('orders keys by index: the lowest signs', () => {
    const settings = fileSettingsOf(
      configOf({
        ...base,
        'service.file-storage.service.signing.enabled': true,
        [`${KEYS}[3].id`]: 'older',
        [`${KEYS}[3].secret`]: 'o',
        [`${KEYS}[1].id`]: 'newer',
        [`${KEYS}[1].secret`]: 'n',
      }),
    );
    expect(settings.signingKeys.map((k) => k.id)).toEqual(['newer', 'older']);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() =>
      fileSettingsOf(configOf({ ...base, 'service.file-storage.service.base-url': 'ftp://x' })),
    ).toThrow(/service\.file-storage\.service\.base-url/);
  });

  it.each([
    [{ 'service.file-storage.type': 'store-a' }, /store-a\.bucket is not set/],
    [
      { 'service.file-storage.type': 'store-b', 'service.file-storage.store-b.bucket': 'b' },
      /store-b\.endpoint is not set/,
    ],
  ])('stops the start when an S3 backend lacks its bucket or endpoint (%j)', async (props, message) => {
    const config = configOf({ ...base, 'service.store': 'memory', 'service.server.port': 0, ...props });
    await expect(startLocalServer(config, { logger: silentLogger })).rejects.toThrow(message);
  });
});
