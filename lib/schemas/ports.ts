/**
 * The schema registry's ports: the store it keeps records in (memory and DynamoDB adapters, one
 * contract suite), and the enforcer the engine calls where payloads cross a schema (workflow input
 * at start, task input at schedule, task output at a worker's update, workflow output at
 * completion). An engine built without an enforcer enforces nothing.
 */
import type { TaskDef, WorkflowDef } from '../model/definitions.ts';
import type { FieldError } from '../model/errors.ts';
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

/** Why a payload is refused: one line for reasons and messages, and each violation by JSON pointer. */
export interface SchemaViolation {
  message: string;
  violations: FieldError[];
}

export interface SchemaEnforcer {
  /**
   * Before a run is created: the input against the definition's enforced inputSchema, and every
   * schema the run will have to enforce (its own and its tasks') registered. Throws a
   * ValidationError (400) listing the violations; no run is created.
   */
  checkStart(def: WorkflowDef, input: Record<string, unknown>): Promise<void>;
  /** A scheduled task's input against its task definition's enforced inputSchema. */
  taskInput(
    taskDef: TaskDef | undefined,
    input: Record<string, unknown>,
  ): Promise<SchemaViolation | undefined>;
  /** A worker's output against its task definition's enforced outputSchema. */
  taskOutput(
    taskDef: TaskDef | undefined,
    output: Record<string, unknown>,
  ): Promise<SchemaViolation | undefined>;
  /** A completing run's output against its definition's enforced outputSchema. */
  workflowOutput(def: WorkflowDef, output: Record<string, unknown>): Promise<SchemaViolation | undefined>;
}
