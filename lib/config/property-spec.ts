/**
 * The shape of a `service.*` property's declaration: its type, default and meaning. Each
 * capability declares its own properties with these (lib/<capability>/properties.ts); the table of
 * every property is lib/config/properties.ts.
 */

export type PropertyType =
  | { kind: 'boolean' }
  | { kind: 'integer'; min?: number; max?: number }
  /** A bare number of seconds or a number with a unit (`500ms`, `30s`, `5m`, `2h`, `1d`); read as milliseconds. */
  | { kind: 'duration' }
  | { kind: 'string' }
  | { kind: 'enum'; values: readonly string[] };

export interface PropertySpec {
  /**
   * Full name; `[n]` marks a list index, e.g. `service.file-storage.service.signing.keys[n].id`, and
   * `{table}` a table id (lower-case letters and digits), e.g. `service.dynamodb.tables.{table}`.
   */
  name: string;
  type: PropertyType;
  default?: string | number | boolean;
  description: string;
}

export const bool = { kind: 'boolean' } as const;
export const str = { kind: 'string' } as const;
export const int = (min?: number, max?: number): PropertyType => ({ kind: 'integer', min, max });
