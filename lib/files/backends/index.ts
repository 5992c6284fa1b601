/**
 * Picks the byte backend of `service.file-storage.type`: the service's own directory, or an S3
 * store (store-a: Amazon S3; store-b: S3-compatible with multipart; store-c: S3-compatible,
 * single PUT only).
 */
import type { ServiceConfig } from '../../config/service-config.ts';
import type { Clock } from '../../model/clock.ts';
import type { FileBackend } from '../ports.ts';
import type { FileSettings } from '../settings.ts';
import type { UrlSigner } from '../signing.ts';
import { DirectoryBackend } from './directory.ts';
import { s3BackendOf } from './s3.ts';

export interface Backends {
  backend: FileBackend;
  /** Set for the `service` backend, whose content routes stream through the service. */
  directory?: DirectoryBackend;
}

export function backendOf(
  settings: FileSettings,
  config: ServiceConfig,
  signer: UrlSigner,
  clock: Clock,
): Backends {
  if (settings.backend === 'service') {
    const directory = new DirectoryBackend({ ...settings, signer, clock });
    return { backend: directory, directory };
  }
  return { backend: s3BackendOf(settings.backend, config, settings.urlLifetimeMs, clock) };
}
