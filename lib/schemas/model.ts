/**
 * The schema record (docs/api.md "Schema record", docs/conductor-compat.md §2.17) and the checks of a
 * registration body: one record or an array, each with a name, a type of JSON, AVRO or PROTOBUF,
 * a positive integer version (default 1) and an object `data`. `externalRef` is kept exactly as
 * sent and never resolved; createTime and updateTime are the server's; createdBy and updatedBy are
 * never stored.
 */

import { PayloadTooLargeError } from '../model/errors.ts';
import { Issues, isObject } from '../validation/issues.ts';

export const SCHEMA_TYPES = ['JSON', 'AVRO', 'PROTOBUF'] as const;
export type SchemaType = (typeof SCHEMA_TYPES)[number];

export interface SchemaRecord {
  name: string;
  version: number;
  type: SchemaType;
  data?: Record<string, unknown>;
  externalRef?: unknown;
  createTime: number;
  updateTime: number;
}

/** A registration as sent: the fields the server keeps, before times and versions are assigned. */
export type SchemaInput = Omit<SchemaRecord, 'createTime' | 'updateTime'>;

/** Longest schema name: every name is a store key (DynamoDB keys hold 2 KB at most). */
export const MAX_NAME_LENGTH = 255;
/** Highest version (Conductor's version is a Java int). */
export const MAX_VERSION = 2_147_483_647;
/** Largest `data` document, as JSON (a DynamoDB item holds 400 KB). */
export const MAX_DATA_BYTES = 256 * 1024;

const INVALID = 'The schema definition is not valid';

/** The records of a POST /api/schema body (one record or a non-empty array of them). */
export function parseSchemaInputs(body: unknown): SchemaInput[] {
  const issues = new Issues();
  const items = Array.isArray(body) ? body : [body];
  if (Array.isArray(body) && body.length === 0) issues.add('body', 'must contain at least one schema');
  const inputs: SchemaInput[] = [];
  items.forEach((item, i) => {
    const input = checkOne(issues, item, Array.isArray(body) ? `[${i}].` : '');
    if (input) inputs.push(input);
  });
  issues.throwIfAny(INVALID);
  for (const input of inputs) {
    const bytes = input.data === undefined ? 0 : Buffer.byteLength(JSON.stringify(input.data));
    if (bytes > MAX_DATA_BYTES) {
      throw new PayloadTooLargeError(
        `Schema ${input.name}: data is ${bytes} bytes as JSON; the limit is ${MAX_DATA_BYTES}`,
      );
    }
  }
  return inputs;
}

function checkOne(issues: Issues, item: unknown, at: string): SchemaInput | undefined {
  if (!isObject(item)) {
    issues.add(at.replace(/\.$/, '') || 'body', 'must be a schema object');
    return undefined;
  }
  const before = issues.list.length;
  const { name, version, type, data } = item;
  if (typeof name !== 'string' || name.trim() === '') {
    issues.add(`${at}name`, 'Schema name cannot be null or empty', name);
  } else if (name.length > MAX_NAME_LENGTH) {
    issues.add(`${at}name`, `must be at most ${MAX_NAME_LENGTH} characters`);
  }
  if (
    version !== undefined &&
    version !== null &&
    (typeof version !== 'number' || !Number.isInteger(version) || version < 1 || version > MAX_VERSION)
  ) {
    issues.add(`${at}version`, `must be an integer from 1 to ${MAX_VERSION}`, version);
  }
  if (!SCHEMA_TYPES.includes(type as SchemaType)) {
    issues.add(`${at}type`, `must be one of ${SCHEMA_TYPES.join(', ')}`, type);
  }
  if (data !== undefined && data !== null && !isObject(data)) {
    issues.add(`${at}data`, 'must be a JSON object');
  }
  if (issues.list.length > before) return undefined;
  const input: SchemaInput = {
    name: name as string,
    version: (version as number | null | undefined) ?? 1,
    type: type as SchemaType,
  };
  if (isObject(data)) input.data = data;
  if (item.externalRef !== undefined) input.externalRef = item.externalRef;
  return input;
}

/** The short listing's row: name and version, zero times, no body (docs/api.md "Schema record"). */
export const shortOf = (record: SchemaRecord) => ({
  name: record.name,
  version: record.version,
  createTime: 0,
  updateTime: 0,
});
