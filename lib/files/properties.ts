/**
 * The file storage's properties (lib/files): the API, its backends and signing. Declared beside the code that
 * reads them; lib/config/properties.ts gathers every capability's into the one property table.
 */
import { bool, int, type PropertySpec, str } from '../config/property-spec.ts';

/** The properties of one S3 file backend (`service.file-storage.type=store-a|b|c`). */
function objectStore<const S extends string>(store: S, what: string) {
  const prefix = `service.file-storage.${store}` as const;
  return [
    { name: `${prefix}.bucket`, type: str, description: `Bucket of ${what}` },
    {
      name: `${prefix}.endpoint`,
      type: str,
      description: `Endpoint URL of ${what}; unset: the AWS endpoint of the region`,
    },
    { name: `${prefix}.region`, type: str, default: 'us-east-1', description: `Region of ${what}` },
    {
      name: `${prefix}.path-style`,
      type: bool,
      default: false,
      description: `Address ${what} by path (endpoint/bucket/key) instead of by virtual host`,
    },
    {
      name: `${prefix}.prefix`,
      type: str,
      default: 'files/',
      description: `Key prefix of uploaded files in ${what}`,
    },
    {
      name: `${prefix}.access-key-id`,
      type: str,
      description: `Access key of ${what}; unset: the SDK's default credential chain`,
    },
    {
      name: `${prefix}.secret-access-key`,
      type: str,
      description: `Secret key of ${what}, with access-key-id`,
    },
  ] as const;
}

/** The property that switches the file storage on. */
export const FILE_STORAGE_GATE = { fileStorage: 'service.file-storage.enabled' } as const;

export const FILE_STORAGE_PROPERTIES = [
  { name: FILE_STORAGE_GATE.fileStorage, type: bool, default: false, description: 'File API and storage' },
  {
    name: 'service.file-storage.type',
    type: { kind: 'enum', values: ['service', 'store-a', 'store-b', 'store-c'] },
    default: 'service',
    description: 'File storage backend',
  },
  {
    name: 'service.file-storage.signed-url-expiration',
    type: int(1),
    default: 3600,
    description: 'Lifetime in seconds of issued upload and download URLs',
  },
  {
    name: 'service.file-storage.multipart-threshold',
    type: int(1),
    default: 64 * 1024 * 1024,
    description: 'Size in bytes at which clients choose multipart',
  },
  {
    name: 'service.file-storage.service.directory',
    type: str,
    description: 'Directory holding uploaded objects (default: temp dir + /service/files-uploaded)',
  },
  {
    name: 'service.file-storage.service.base-url',
    type: str,
    description: 'Public origin for content URLs; default derived from the request',
  },
  {
    name: 'service.file-storage.service.max-size',
    type: int(1),
    default: 104_857_600,
    description: 'Largest upload in bytes',
  },
  {
    name: 'service.file-storage.service.signing.enabled',
    type: bool,
    default: false,
    description: 'Require signed content URLs',
  },
  {
    name: 'service.file-storage.service.signing.keys[n].id',
    type: str,
    description: 'Signing key id (unique)',
  },
  {
    name: 'service.file-storage.service.signing.keys[n].secret',
    type: str,
    description: 'Signing key HMAC secret',
  },
  ...objectStore('store-a', 'Amazon S3 (the stack sets the bucket)'),
  ...objectStore('store-b', 'an S3-compatible endpoint with multipart'),
  ...objectStore('store-c', 'an S3-compatible endpoint, single PUT only'),
] as const satisfies readonly PropertySpec[];
