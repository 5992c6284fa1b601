/**
 * Storage ports in domain words. Each has an in-memory adapter (store/memory) and a DynamoDB adapter
 * (store/dynamodb); one contract suite per port (test/store) runs against both. Rules that hold for
 * every backend (validation, defaults, audit times) live above the ports, in the services.
 */
import type { TaskDef, WorkflowDef } from '../model/definitions.ts';

export interface WorkflowDefStore {
  /**
   * Stores one version. With `overwrite` false an existing (name, version) is a ConflictError;
   * with it true the version is replaced.
   */
  put(def: WorkflowDef, options: { overwrite: boolean }): Promise<void>;
  /** One version, or the highest version when `version` is undefined. */
  get(name: string, version?: number): Promise<WorkflowDef | undefined>;
  /** Every version of one name, ascending. */
  versions(name: string): Promise<WorkflowDef[]>;
  /** Every version of every name, by name then version. */
  list(): Promise<WorkflowDef[]>;
  /** Removes one version; false when it did not exist. */
  delete(name: string, version: number): Promise<boolean>;
}

export interface TaskDefStore {
  /** Creates or replaces. */
  put(def: TaskDef): Promise<void>;
  get(name: string): Promise<TaskDef | undefined>;
  /** Many at once (for workflow validation and scheduling); missing names are absent from the map. */
  getMany(names: readonly string[]): Promise<Map<string, TaskDef>>;
  /** Every task definition, by name. */
  list(): Promise<TaskDef[]>;
  /** Removes one; false when it did not exist. */
  delete(name: string): Promise<boolean>;
}

/** Everything the service keeps, as one bundle of ports built by a composition root. */
export interface Stores {
  workflowDefs: WorkflowDefStore;
  taskDefs: TaskDefStore;
  /** Releases connections and embedded servers; every acknowledged write is already durable. */
  close(): Promise<void>;
}
