/**
 * The schema registry's store port (memory and DynamoDB adapters, one contract suite). The enforcer
 * the registry implements is the engine's port (lib/engine/schema-enforcer.ts).
 */
import type { SchemaRecord } from './model.ts';

export interface SchemaStore {
  /** Creates or replaces (name, version). */
  put(record: SchemaRecord): Promise<void>;
  /** Creates (name, version) only if it does not exist; false when it does (version allocation). */
  create(record: SchemaRecord): Promise<boolean>;
  /** One version, or the highest when `version` is undefined. */
  get(name: string, version?: number): Promise<SchemaRecord | undefined>;
  /** Every version of every name, by name then version. */
  list(): Promise<SchemaRecord[]>;
  /** Removes one version; false when it did not exist. */
  delete(name: string, version: number): Promise<boolean>;
  /** Removes every version of a name; how many there were. */
  deleteAll(name: string): Promise<number>;
}

export type { SchemaEnforcer, SchemaViolation } from '../engine/schema-enforcer.ts';
