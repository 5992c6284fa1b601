// The schemas list rows: one per name, from every version of every schema.
import { describe, expect, it } from 'vitest';
import type { SchemaRecord } from '../../../ui/src/api/routes.ts';
import { downloadName, schemaRows, versionsOf } from '../../../ui/src/logic/schema-rows.ts';

const record = (
  name: string,
  version: number,
  type: SchemaRecord['type'],
  createTime: number,
): SchemaRecord => ({
  name,
  version,
  type,
  createTime,
  updateTime: createTime,
});

describe('schema rows', () => {
  const records = [
    record('b', 1, 'JSON', 300),
    record('a', 2, 'AVRO', 200),
    record('a', 1, 'AVRO', 100),
    record('a', 3, 'JSON', 400),
  ];

  it('has one row per name with the latest version, the count and the first creation time, sorted by name', () => {
    expect(schemaRows(records)).toEqual([
      { name: 'a', type: 'JSON', latestVersion: 3, versionCount: 3, createTime: 100 },
      { name: 'b', type: 'JSON', latestVersion: 1, versionCount: 1, createTime: 300 },
    ]);
  });

  it('lists the versions of one schema highest first', () => {
    expect(versionsOf(records, 'a')).toEqual([3, 2, 1]);
    expect(versionsOf(records, 'zzz')).toEqual([]);
  });

  it('names downloads after the schema and version, safe as a file name', () => {
    expect(downloadName('order', 2)).toBe('order.v2.json');
    expect(downloadName('a/b c', 1)).toBe('a_b_c.v1.json');
  });
});
