/**
 * The schema registry's rules over the SchemaStore port (docs/api.md "Schema registry"): saves in
 * place or at a new version, reads through the schema cache, deletes, and compiled validators per
 * (name, version). A new version is allocated with a conditional create and retried when another
 * save took it, so concurrent `newVersion` saves of one name each get their own version.
 */
import type { Clock } from '../model/clock.ts';
import { NotFoundError, quote, TransientError, ValidationError } from '../model/errors.ts';
import { type CacheOptions, SchemaCache } from './cache.ts';
import { compile, type Validator } from './drafts.ts';
import {
  MAX_NAME_LENGTH,
  MAX_VERSION,
  parseSchemaInputs,
  type SchemaInput,
  type SchemaRecord,
  shortOf,
} from './model.ts';
import type { SchemaStore } from './ports.ts';

/** Attempts at a new version; each lost race means another save took a version, so this is ample. */
const MAX_ALLOCATION_ATTEMPTS = 100;

export class SchemaService {
  readonly cache: SchemaCache<SchemaRecord>;
  // Compiled validators by (name, version); the data they were compiled from tells an overwrite.
  private readonly validators = new Map<string, { source: string; validator: Validator | undefined }>();

  constructor(
    private readonly store: SchemaStore,
    private readonly clock: Clock,
    private readonly cacheOptions: CacheOptions,
  ) {
    this.cache = new SchemaCache(clock, cacheOptions);
  }

  /** POST /api/schema: every record is checked (and JSON schemas compiled) before any is stored. */
  async save(body: unknown, newVersion: boolean): Promise<void> {
    const inputs = parseSchemaInputs(body);
    for (const input of inputs) {
      if (input.type !== 'JSON') continue;
      try {
        compile(input.data);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new ValidationError(`Invalid JSON schema ${quote(input.name)}: ${message}`, [
          { path: 'data', message },
        ]);
      }
    }
    for (const input of inputs) {
      if (newVersion) await this.saveNewVersion(input);
      else await this.saveInPlace(input);
      this.cache.invalidate(input.name);
    }
  }

  private async saveInPlace(input: SchemaInput): Promise<void> {
    const now = this.clock.now();
    const existing = await this.store.get(input.name, input.version);
    await this.store.put({ ...input, createTime: existing?.createTime ?? now, updateTime: now });
  }

  private async saveNewVersion(input: SchemaInput): Promise<void> {
    for (let attempt = 0; attempt < MAX_ALLOCATION_ATTEMPTS; attempt++) {
      const latest = await this.store.get(input.name);
      const version = (latest?.version ?? 0) + 1;
      if (version > MAX_VERSION) throw new ValidationError(`Schema ${quote(input.name)} has no version left`);
      const now = this.clock.now();
      if (await this.store.create({ ...input, version, createTime: now, updateTime: now })) return;
    }
    throw new TransientError(`Too many concurrent saves of schema ${quote(input.name)}; try again`);
  }

  /** GET /api/schema: every version of every schema, or the short listing. */
  async list(short: boolean): Promise<object[]> {
    const records = await this.store.list();
    return short ? records.map(shortOf) : records;
  }

  /** GET /api/schema/{name}[/{version}]: 404 naming the schema when absent. */
  async get(name: string, version?: number): Promise<SchemaRecord> {
    const found = await this.find(name, version);
    if (!found) throw notFound(name, version);
    return found;
  }

  /** DELETE /api/schema/{name}[/{version}]: 404 when there was nothing to remove. */
  async delete(name: string, version?: number): Promise<void> {
    if (!addressable(name, version)) throw notFound(name, version);
    const removed =
      version === undefined ? (await this.store.deleteAll(name)) > 0 : await this.store.delete(name, version);
    this.cache.invalidate(name);
    if (!removed) throw notFound(name, version);
  }

  /** One version or the latest, through the cache; undefined when not registered. */
  find(name: string, version?: number): Promise<SchemaRecord | undefined> {
    if (!addressable(name, version)) return Promise.resolve(undefined);
    return this.cache.read(name, version, () => this.store.get(name, version));
  }

  /** The compiled validator of a record; undefined when it validates nothing (not JSON, no $schema). */
  validatorOf(record: SchemaRecord): Validator | undefined {
    if (record.type !== 'JSON' || record.data === undefined) return undefined;
    const key = `${record.name}\u0000${record.version}`;
    const source = JSON.stringify(record.data);
    const known = this.validators.get(key);
    if (known?.source === source) return known.validator;
    // Stored schemas compiled when they were saved; one that no longer does validates nothing.
    let validator: Validator | undefined;
    try {
      validator = compile(record.data);
    } catch {
      validator = undefined;
    }
    this.validators.delete(key);
    this.validators.set(key, { source, validator });
    while (this.validators.size > this.cacheOptions.maxSize) {
      const oldest = this.validators.keys().next().value;
      if (oldest === undefined) break;
      this.validators.delete(oldest);
    }
    return validator;
  }
}

/** Names and versions no record can have are answered without a store read. */
const addressable = (name: string, version?: number): boolean =>
  name.length > 0 &&
  name.length <= MAX_NAME_LENGTH &&
  (version === undefined || (Number.isInteger(version) && version >= 1 && version <= MAX_VERSION));

function notFound(name: string, version?: number): NotFoundError {
  return new NotFoundError(
    version === undefined
      ? `No such schema found by name: ${quote(name)}`
      : `No such schema found by name: ${quote(name)}, version: ${version}`,
  );
}
