/**
 * Schema enforcement over the registry (the SchemaEnforcer port): workflow and task definitions
 * name a schema in `inputSchema` / `outputSchema` ({name, version?}; latest when no version), and
 * `enforceSchema` says whether it is enforced (default true on a workflow definition, false on a
 * task definition, as in Conductor). Only JSON schemas with a `$schema` line validate; AVRO,
 * PROTOBUF and JSON without `$schema` pass anything. A schema that must be enforced and is not
 * registered refuses the start (or fails the task or run that meets it later).
 */

import type { SchemaEnforcer, SchemaViolation } from '../engine/schema-enforcer.ts';
import { forEachTask } from '../model/definition-graph.ts';
import type { TaskDef, WorkflowDef } from '../model/definitions.ts';
import { type FieldError, quote, ValidationError } from '../model/errors.ts';
import { describeViolations } from './drafts.ts';
import type { SchemaRecord } from './model.ts';
import type { SchemaService } from './service.ts';

interface SchemaRef {
  name: string;
  version?: number;
}

type Field = 'inputSchema' | 'outputSchema';

/** The schema a definition field names; 'invalid' when the field is there but names none. */
function refOf(holder: Record<string, unknown>, field: Field): SchemaRef | 'invalid' | undefined {
  const value = holder[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return 'invalid';
  const { name, version } = value as { name?: unknown; version?: unknown };
  if (typeof name !== 'string' || name === '') return 'invalid';
  if (version === undefined || version === null || version === 0) return { name };
  return typeof version === 'number' && Number.isInteger(version) && version > 0
    ? { name, version }
    : 'invalid';
}

const workflowEnforces = (def: WorkflowDef) => def.enforceSchema !== false;
const taskEnforces = (def: TaskDef | undefined): def is TaskDef => def?.enforceSchema === true;
const label = (ref: SchemaRef) => `${quote(ref.name)} version ${ref.version ?? 'latest'}`;

export class RegistryEnforcer implements SchemaEnforcer {
  constructor(private readonly registry: SchemaService) {}

  async checkStart(def: WorkflowDef, input: Record<string, unknown>): Promise<void> {
    // Every schema the run will enforce must exist; the lookups go out together, so a start pays
    // for one store round trip however many schemas it names (ttl 0 reads each one every time).
    const wanted: { holder: Record<string, unknown>; field: Field; path: string }[] = [];
    if (workflowEnforces(def)) {
      wanted.push({ holder: def, field: 'inputSchema', path: 'inputSchema' });
      wanted.push({ holder: def, field: 'outputSchema', path: 'outputSchema' });
    }
    forEachTask(def.tasks, (task) => {
      const taskDef = task.taskDefinition;
      if (!taskEnforces(taskDef)) return;
      const ref = task.taskReferenceName;
      wanted.push({ holder: taskDef, field: 'inputSchema', path: `${ref}.inputSchema` });
      wanted.push({ holder: taskDef, field: 'outputSchema', path: `${ref}.outputSchema` });
    });
    const found = await Promise.all(wanted.map(({ holder, field }) => this.lookup(holder, field)));
    const missing: FieldError[] = [];
    found.forEach((result, i) => {
      if (typeof result === 'string') missing.push({ path: wanted[i]?.path ?? '', message: result });
    });
    const first = found[0];
    const inputSchema = workflowEnforces(def) && typeof first === 'object' ? first : undefined;
    if (missing.length > 0) {
      throw new ValidationError(
        `Workflow ${quote(def.name)} enforces schemas that cannot be used: ${missing.map((m) => `${m.path}: ${m.message}`).join('; ')}`,
        missing,
      );
    }
    const violation = inputSchema && this.validate(inputSchema, input, 'Workflow input');
    if (violation) throw new ValidationError(violation.message, violation.violations);
  }

  taskInput(
    taskDef: TaskDef | undefined,
    input: Record<string, unknown>,
  ): Promise<SchemaViolation | undefined> {
    if (!taskEnforces(taskDef)) return Promise.resolve(undefined);
    return this.check(taskDef, 'inputSchema', input, `Task ${quote(taskDef.name)} input`);
  }

  taskOutput(
    taskDef: TaskDef | undefined,
    output: Record<string, unknown>,
  ): Promise<SchemaViolation | undefined> {
    if (!taskEnforces(taskDef)) return Promise.resolve(undefined);
    return this.check(taskDef, 'outputSchema', output, `Task ${quote(taskDef.name)} output`);
  }

  workflowOutput(def: WorkflowDef, output: Record<string, unknown>): Promise<SchemaViolation | undefined> {
    if (!workflowEnforces(def)) return Promise.resolve(undefined);
    return this.check(def, 'outputSchema', output, 'Workflow output');
  }

  /** The record a field names; undefined when it names none, else why it cannot be used. */
  private async lookup(
    holder: Record<string, unknown>,
    field: Field,
  ): Promise<SchemaRecord | string | undefined> {
    const ref = refOf(holder, field);
    if (ref === undefined) return undefined;
    if (ref === 'invalid') return `${field} must name a schema: {"name": "...", "version": n}`;
    return (await this.registry.find(ref.name, ref.version)) ?? `Schema not found: ${label(ref)}`;
  }

  private async check(
    holder: Record<string, unknown>,
    field: Field,
    value: Record<string, unknown>,
    what: string,
  ): Promise<SchemaViolation | undefined> {
    const found = await this.lookup(holder, field);
    if (found === undefined) return undefined;
    if (typeof found === 'string') {
      return { message: `${what}: ${found}`, violations: [{ path: field, message: found }] };
    }
    return this.validate(found, value, what);
  }

  private validate(
    record: SchemaRecord,
    value: Record<string, unknown>,
    what: string,
  ): SchemaViolation | undefined {
    const violations = this.registry.validatorOf(record)?.(value) ?? [];
    if (violations.length === 0) return undefined;
    return {
      message: `${what} does not match schema ${quote(record.name)} version ${record.version}: ${describeViolations(violations)}`,
      violations,
    };
  }
}
