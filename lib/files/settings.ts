/**
 * File storage configuration (docs/api.md "File storage configuration"), read once when the file
 * routes are built, i.e. at start: a wrong value stops the start with a message naming the
 * property. Signing on with no key, a key without its secret, or two keys with one id, all stop it.
 */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import { FILE_BACKENDS, type FileBackendType } from './model.ts';

export interface SigningKey {
  id: string;
  secret: string;
}

export interface FileSettings {
  backend: FileBackendType;
  /** Lifetime of issued URLs, ms. */
  urlLifetimeMs: number;
  multipartThreshold: number;
  directory: string;
  baseUrl?: string;
  maxSize: number;
  /** The first key signs, every key verifies; empty when signing is off. */
  signingKeys: SigningKey[];
}

const KEYS = 'service.file-storage.service.signing.keys';

export function fileSettingsOf(config: ServiceConfig): FileSettings {
  const signing = config.boolean('service.file-storage.service.signing.enabled');
  return {
    backend: config.oneOf('service.file-storage.type', FILE_BACKENDS),
    urlLifetimeMs: config.number('service.file-storage.signed-url-expiration') * 1000,
    multipartThreshold: config.number('service.file-storage.multipart-threshold'),
    directory: resolve(
      config.string('service.file-storage.service.directory') ?? join(tmpdir(), 'service', 'files-uploaded'),
    ),
    baseUrl: baseUrlOf(config.string('service.file-storage.service.base-url')),
    maxSize: config.number('service.file-storage.service.max-size'),
    signingKeys: signing ? signingKeysOf(config) : [],
  };
}

function signingKeysOf(config: ServiceConfig): SigningKey[] {
  const entries = config.list(KEYS);
  if (entries.length === 0) {
    throw new ConfigError(
      `Property service.file-storage.service.signing.enabled is true but no ${KEYS}[n].id / .secret is set`,
    );
  }
  const seen = new Set<string>();
  return entries.map((entry, n) => {
    const id = entry.id === undefined ? '' : String(entry.id);
    const secret = entry.secret === undefined ? '' : String(entry.secret);
    if (id === '') throw new ConfigError(`Property ${KEYS}[${n}].id is not set`);
    if (secret === '') throw new ConfigError(`Property ${KEYS}[${n}].secret is not set`);
    if (seen.has(id)) throw new ConfigError(`Property ${KEYS}[${n}].id repeats the key id '${id}'`);
    seen.add(id);
    return { id, secret };
  });
}

function baseUrlOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `Property service.file-storage.service.base-url must be an http(s) URL, got '${value}'`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      `Property service.file-storage.service.base-url must be an http(s) URL, got '${value}'`,
    );
  }
  return value.replace(/\/+$/, '');
}
