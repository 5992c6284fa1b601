/**
 * The schemas list: one row per schema name from GET /api/schema (every version of every schema),
 * with its type and latest version, how many versions it has and when it was created.
 */
import type { SchemaRecord } from '../api/routes.ts';

export interface SchemaRow {
  name: string;
  type: string;
  latestVersion: number;
  versionCount: number;
  /** The earliest createTime of its versions (epoch ms), 0 when unknown. */
  createTime: number;
}

export function schemaRows(records: readonly SchemaRecord[]): SchemaRow[] {
  const byName = new Map<string, SchemaRecord[]>();
  for (const record of records) {
    const list = byName.get(record.name) ?? [];
    list.push(record);
    byName.set(record.name, list);
  }
  return [...byName.entries()]
    .map(([name, versions]) => {
      const latest = versions.reduce((a, b) => (b.version > a.version ? b : a));
      const times = versions.map((v) => v.createTime).filter((t) => typeof t === 'number' && t > 0);
      return {
        name,
        type: latest.type,
        latestVersion: latest.version,
        versionCount: versions.length,
        createTime: times.length > 0 ? Math.min(...times) : 0,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The versions of one schema, highest first. */
export function versionsOf(records: readonly SchemaRecord[], name: string): number[] {
  return records
    .filter((r) => r.name === name)
    .map((r) => r.version)
    .sort((a, b) => b - a);
}

/** A new JSON schema's starting text: a `$schema` line, so the server can validate against it. */
export const JSON_SCHEMA_TEMPLATE = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {},
  required: [],
};

/** The download name of a schema version: `<name>.v<version>.json`, safe as a file name. */
export function downloadName(name: string, version: number): string {
  return `${name.replace(/[^A-Za-z0-9._-]+/g, '_')}.v${version}.json`;
}
