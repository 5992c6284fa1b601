/**
 * Applications and their access keys (docs/api.md "Applications", docs/security.md "Keys in the
 * store"), as the official SDK's ApplicationClient speaks them: an application has a name, roles,
 * tags and up to MAX_KEYS access keys. A key's secret is shown once, when it is made, and kept only
 * as a slow salted hash (lib/security/secret-hash.ts). One record holds the application with its
 * keys, so one read says what a key may do now (the token check of every request).
 */
import type { Role } from '../security/roles.ts';

export type AccessKeyStatus = 'ACTIVE' | 'INACTIVE';

export interface AccessKeyRecord {
  id: string;
  /** lib/security/secret-hash.ts; never answered. */
  secretHash: string;
  status: AccessKeyStatus;
  createdAt: number;
}

/** Orkes' Tag: `key` and `value` (`type` is deprecated and kept only when sent). */
export interface Tag {
  key: string;
  value: string;
  type?: string;
}

export interface ApplicationRecord {
  id: string;
  name: string;
  roles: Role[];
  tags: Tag[];
  keys: AccessKeyRecord[];
  createTime: number;
  createdBy: string;
  updateTime: number;
  updatedBy: string;
  /** Incremented by every write; a write is conditional on the revision it read. */
  revision: number;
}

/** Most access keys one application holds (active or not). */
export const MAX_KEYS = 10;
/** Most tags one application holds. */
export const MAX_TAGS = 100;
/** Longest application name, tag key or tag value. */
export const MAX_NAME_LENGTH = 255;

/** Orkes' ExtendedConductorApplication, with the application's roles besides. */
export interface ApplicationView {
  id: string;
  name: string;
  roles: Role[];
  tags: Tag[];
  createTime: number;
  createdBy: string;
  updateTime: number;
  updatedBy: string;
}

/** Orkes' AccessKeyInfo: what a key's listing shows (never the secret). */
export interface AccessKeyInfo {
  id: string;
  createdAt: number;
  status: AccessKeyStatus;
}

/** Orkes' AccessKey: the answer of a key's creation, the only time its secret is shown. */
export interface CreatedAccessKey {
  id: string;
  secret: string;
}

export function applicationView(record: ApplicationRecord): ApplicationView {
  return {
    id: record.id,
    name: record.name,
    roles: [...record.roles],
    tags: record.tags.map((tag) => ({ ...tag })),
    createTime: record.createTime,
    createdBy: record.createdBy,
    updateTime: record.updateTime,
    updatedBy: record.updatedBy,
  };
}

export function accessKeyInfo(key: AccessKeyRecord): AccessKeyInfo {
  return { id: key.id, createdAt: key.createdAt, status: key.status };
}

/** Whether two tags are the same tag: same key and value. */
export const sameTag = (a: Tag, b: Tag): boolean => a.key === b.key && a.value === b.value;
