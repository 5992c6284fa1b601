/**
 * The engine's schema port: what it calls where payloads cross a schema (workflow input at start,
 * task input at schedule, task output at a worker's update, workflow output at completion). The
 * schema registry (lib/schemas) implements it and contributes it to the engine; an engine built
 * without one enforces nothing.
 */
import type { TaskDef, WorkflowDef } from '../model/definitions.ts';
import type { FieldError } from '../model/errors.ts';

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
