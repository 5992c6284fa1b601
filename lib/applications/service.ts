/**
 * Applications, their access keys, roles and tags (docs/api.md "Applications"). A change reads the
 * application, changes a copy and writes it back on the revision it read, again on a lost race
 * (a few times, then 409 retryable). Unknown applications and keys are 404. A key's secret is made
 * here, answered once and kept only as its hash; the keys are what the API's authentication reads
 * (keyDirectoryOf, lib/security/api-auth.ts), so a key disabled or deleted, or a role removed,
 * counts for the next request.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../model/clock.ts';
import { ConflictError, NotFoundError, quote, VersionConflictError } from '../model/errors.ts';
import { type IdGenerator, randomIds } from '../model/ids.ts';
import type { KeyDirectory, StoredKeyState } from '../security/api-auth.ts';
import type { Role } from '../security/roles.ts';
import { hashSecret } from '../security/secret-hash.ts';
import {
  type AccessKeyInfo,
  type AccessKeyRecord,
  type ApplicationRecord,
  type ApplicationView,
  accessKeyInfo,
  applicationView,
  type CreatedAccessKey,
  MAX_KEYS,
  MAX_TAGS,
  sameTag,
  type Tag,
} from './model.ts';
import type { ApplicationStore } from './ports.ts';

/** How often a change is tried again after another writer changed the application first. */
const ATTEMPTS = 5;

/** Who made a change, as createdBy/updatedBy say: the caller's key, or nobody with security off. */
export const ANONYMOUS = 'anonymous';

export class ApplicationService {
  constructor(
    private readonly store: ApplicationStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator = randomIds,
  ) {}

  async list(): Promise<ApplicationView[]> {
    return (await this.store.list()).map(applicationView);
  }

  async create(name: string, by: string): Promise<ApplicationView> {
    const now = this.clock.now();
    const record: ApplicationRecord = {
      id: this.ids.random(),
      name,
      roles: [],
      tags: [],
      keys: [],
      createTime: now,
      createdBy: by,
      updateTime: now,
      updatedBy: by,
      revision: 1,
    };
    if (!(await this.store.create(record))) throw new ConflictError(`Application ${record.id} exists`);
    return applicationView(record);
  }

  async get(id: string): Promise<ApplicationView> {
    return applicationView(await this.read(id));
  }

  async rename(id: string, name: string, by: string): Promise<ApplicationView> {
    return applicationView(
      await this.change(id, by, (record) => {
        record.name = name;
      }),
    );
  }

  async delete(id: string): Promise<void> {
    if (!(await this.store.delete(id))) throw notFound(id);
  }

  /** A new key: its secret is in this answer only. */
  async createKey(applicationId: string, by: string): Promise<CreatedAccessKey> {
    const id = this.ids.random().replaceAll('-', '');
    const secret = randomBytes(36).toString('base64url');
    const key: AccessKeyRecord = {
      id,
      secretHash: await hashSecret(secret),
      status: 'ACTIVE',
      createdAt: this.clock.now(),
    };
    await this.change(applicationId, by, (record) => {
      if (record.keys.some((k) => k.id === id)) return;
      if (record.keys.length >= MAX_KEYS) {
        throw new ConflictError(
          `Application ${quote(applicationId)} holds ${MAX_KEYS} access keys, the most it may: delete one first`,
        );
      }
      record.keys.push(key);
    });
    return { id, secret };
  }

  async keys(applicationId: string): Promise<AccessKeyInfo[]> {
    return (await this.read(applicationId)).keys.map(accessKeyInfo);
  }

  /** ACTIVE becomes INACTIVE and back; the key's tokens follow at once. */
  async toggleKey(applicationId: string, keyId: string, by: string): Promise<AccessKeyInfo> {
    let toggled: AccessKeyRecord | undefined;
    await this.change(applicationId, by, (record) => {
      const key = keyIn(record, keyId);
      key.status = key.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
      toggled = key;
    });
    return accessKeyInfo(toggled as AccessKeyRecord);
  }

  async deleteKey(applicationId: string, keyId: string, by: string): Promise<void> {
    await this.change(applicationId, by, (record) => {
      keyIn(record, keyId);
      record.keys = record.keys.filter((k) => k.id !== keyId);
    });
  }

  async byKey(keyId: string): Promise<ApplicationView> {
    const record = await this.store.findByKey(keyId);
    if (!record) throw new NotFoundError(`No application has the access key ${quote(keyId)}`);
    return applicationView(record);
  }

  async addRole(applicationId: string, role: Role, by: string): Promise<ApplicationView> {
    return applicationView(
      await this.change(applicationId, by, (record) => {
        if (!record.roles.includes(role)) record.roles.push(role);
      }),
    );
  }

  async removeRole(applicationId: string, role: Role, by: string): Promise<ApplicationView> {
    return applicationView(
      await this.change(applicationId, by, (record) => {
        record.roles = record.roles.filter((r) => r !== role);
      }),
    );
  }

  async tags(applicationId: string): Promise<Tag[]> {
    return applicationView(await this.read(applicationId)).tags;
  }

  /** Adds tags; one already there (same key and value) is not added twice. */
  async addTags(applicationId: string, tags: readonly Tag[], by: string): Promise<void> {
    await this.change(applicationId, by, (record) => {
      for (const tag of tags) {
        if (!record.tags.some((t) => sameTag(t, tag))) record.tags.push(tagOf(tag));
      }
      if (record.tags.length > MAX_TAGS) {
        throw new ConflictError(`An application holds at most ${MAX_TAGS} tags`);
      }
    });
  }

  /** Removes the tags of these keys and values; absent ones are fine. */
  async removeTags(applicationId: string, tags: readonly Tag[], by: string): Promise<void> {
    await this.change(applicationId, by, (record) => {
      record.tags = record.tags.filter((t) => !tags.some((gone) => sameTag(t, gone)));
    });
  }

  private async read(id: string): Promise<ApplicationRecord> {
    const record = await this.store.get(id);
    if (!record) throw notFound(id);
    return record;
  }

  /** Reads, changes and writes back on the revision read; again when another write came first. */
  private async change(
    id: string,
    by: string,
    apply: (record: ApplicationRecord) => void,
  ): Promise<ApplicationRecord> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = await this.read(id);
      const next = structuredClone(current);
      apply(next);
      next.updateTime = this.clock.now();
      next.updatedBy = by;
      next.revision = current.revision + 1;
      if (await this.store.replace(next, current.revision)) return next;
    }
    throw new VersionConflictError(`Application ${quote(id)} kept changing; try again`);
  }
}

/**
 * The stored keys as authentication reads them (lib/security/api-auth.ts): each read is of the
 * application as it is now, so a key disabled or deleted, or a role removed, counts at once.
 */
export function keyDirectoryOf(store: ApplicationStore): KeyDirectory {
  const stateOf = (record: ApplicationRecord | undefined, keyId: string): StoredKeyState | undefined => {
    const key = record?.keys.find((k) => k.id === keyId);
    if (!record || !key) return undefined;
    return {
      id: key.id,
      applicationId: record.id,
      active: key.status === 'ACTIVE',
      secretHash: key.secretHash,
      roles: record.roles,
    };
  };
  return {
    key: async (keyId) => stateOf(await store.findByKey(keyId), keyId),
    keyOf: async (applicationId, keyId) => stateOf(await store.get(applicationId), keyId),
  };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`No application ${quote(id)}`);
}

function keyIn(record: ApplicationRecord, keyId: string): AccessKeyRecord {
  const key = record.keys.find((k) => k.id === keyId);
  if (!key) throw new NotFoundError(`Application ${quote(record.id)} has no access key ${quote(keyId)}`);
  return key;
}

function tagOf(tag: Tag): Tag {
  return tag.type === undefined ? { key: tag.key, value: tag.value } : { ...tag };
}
