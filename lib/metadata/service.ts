/**
 * The definitions service behind /api/metadata: validation, Conductor's defaults and audit times,
 * and the listing filters the official UI sends. Storage goes through the definition ports.
 */
import type { Clock } from '../model/clock.ts';
import type { TaskDef, WorkflowDef, WorkflowDefSummary } from '../model/definitions.ts';
import { ConflictError, errorMessage, NotFoundError, quote } from '../model/errors.ts';
import { isKnownTaskType } from '../model/task-types/index.ts';
import type { TaskDefStore, WorkflowDefStore } from '../store/ports.ts';
import { Issues, isObject } from '../validation/issues.ts';
import { validateTaskDef, validateTaskDefs } from './task-def.ts';
import { checkWorkflowDef, INVALID_WORKFLOW, normalizeWorkflowDef, rawTasksOf } from './workflow-def.ts';

/** Tries of a next-version save that keeps losing its version to concurrent saves. */
const NEXT_VERSION_ATTEMPTS = 5;

export interface BulkResponse<T> {
  bulkErrorResults: Record<string, string>;
  bulkSuccessfulResults: T[];
}

export interface WorkflowDefListing {
  /** Keep only this name (the UI editor asks for one name's versions). */
  name?: string;
  /** `workflow` keeps plain definitions, anything else keeps definitions whose metadata.classifier equals it. */
  classifier?: string;
  /** Drop the task lists (the UI's `short=true` pickers need names and versions only). */
  short?: boolean;
  /** Only the highest version of each name. */
  latestOnly?: boolean;
}

export class MetadataService {
  constructor(
    private readonly workflowDefs: WorkflowDefStore,
    private readonly taskDefs: TaskDefStore,
    private readonly clock: Clock,
  ) {}

  // ---- workflow definitions ----

  async registerWorkflowDef(body: unknown, overwrite: boolean): Promise<WorkflowDef> {
    const [def] = await this.validateWorkflowDefs(body, false);
    const existing = overwrite ? await this.workflowDefs.get(def.name, def.version) : undefined;
    const stored = this.stamp(def, existing);
    await this.workflowDefs.put(stored, { overwrite });
    return stored;
  }

  /**
   * PUT /metadata/workflow: upsert many; any invalid definition rejects the whole request. With
   * `newVersion` (Orkes; the UI's "Save as new version") each definition is stored as the version
   * after the highest one stored under its name, whatever version it names (the one it names when
   * none is stored), and never overwrites one.
   */
  async upsertWorkflowDefs(
    body: unknown,
    options: { newVersion?: boolean } = {},
  ): Promise<BulkResponse<string>> {
    const defs = await this.validateWorkflowDefs(body, true);
    const result: BulkResponse<string> = { bulkErrorResults: {}, bulkSuccessfulResults: [] };
    for (const def of defs) {
      try {
        if (options.newVersion) await this.putNextVersion(def);
        else {
          const existing = await this.workflowDefs.get(def.name, def.version);
          await this.workflowDefs.put(this.stamp(def, existing), { overwrite: true });
        }
        result.bulkSuccessfulResults.push(def.name);
      } catch (error) {
        result.bulkErrorResults[def.name] = errorMessage(error);
      }
    }
    return result;
  }

  /**
   * Stores a definition as its name's next version; a concurrent save that took that version first
   * makes it try the one after (a few times, then the conflict is reported).
   */
  private async putNextVersion(def: WorkflowDef): Promise<WorkflowDef> {
    for (let attempt = 1; ; attempt++) {
      const latest = await this.workflowDefs.get(def.name);
      const stored = this.stamp({ ...def, version: latest ? latest.version + 1 : def.version }, undefined);
      try {
        await this.workflowDefs.put(stored, { overwrite: false });
        return stored;
      } catch (error) {
        if (!(error instanceof ConflictError) || attempt >= NEXT_VERSION_ATTEMPTS) throw error;
      }
    }
  }

  /** POST /metadata/workflow/validate. */
  async validateWorkflowDef(body: unknown): Promise<void> {
    await this.validateWorkflowDefs(body, false);
  }

  async getWorkflowDef(name: string, version?: number): Promise<WorkflowDef> {
    const def = await this.workflowDefs.get(name, version);
    if (!def)
      throw new NotFoundError(
        `No such workflow found by name: ${quote(name)}, version: ${quote(version ?? 'latest')}`,
      );
    return def;
  }

  /** The definition, or undefined (for callers with their own not-found message). */
  findWorkflowDef(name: string, version?: number): Promise<WorkflowDef | undefined> {
    return this.workflowDefs.get(name, version);
  }

  async listWorkflowDefs(filter: WorkflowDefListing = {}): Promise<WorkflowDef[]> {
    let defs =
      filter.name !== undefined
        ? await this.workflowDefs.versions(filter.name)
        : await this.workflowDefs.list();
    if (filter.classifier !== undefined) defs = defs.filter((d) => classifierOf(d) === filter.classifier);
    if (filter.latestOnly) defs = latestOfEach(defs);
    if (filter.short) defs = defs.map((d) => ({ ...d, tasks: [] }));
    return defs;
  }

  async workflowVersions(name: string): Promise<WorkflowDefSummary[]> {
    const defs = await this.workflowDefs.versions(name);
    if (defs.length === 0) throw new NotFoundError(`No such workflow found by name: ${quote(name)}`);
    return defs.map(summary);
  }

  async namesAndVersions(): Promise<Record<string, WorkflowDefSummary[]>> {
    const out: Record<string, WorkflowDefSummary[]> = {};
    for (const def of await this.workflowDefs.list()) {
      const versions = out[def.name] ?? [];
      versions.push(summary(def));
      out[def.name] = versions;
    }
    return out;
  }

  async deleteWorkflowDef(name: string, version: number): Promise<void> {
    if (!(await this.workflowDefs.delete(name, version))) {
      throw new NotFoundError(
        `No such workflow definition found by name: ${quote(name)}, version: ${quote(version)}`,
      );
    }
  }

  // ---- task definitions ----

  async registerTaskDefs(body: unknown): Promise<TaskDef[]> {
    const defs = validateTaskDefs(body);
    const now = this.clock.now();
    const stored = defs.map((def) => ({ ...def, createTime: now }));
    for (const def of stored) await this.taskDefs.put(def);
    return stored;
  }

  async updateTaskDef(body: unknown): Promise<TaskDef> {
    const def = validateTaskDef(body);
    const existing = await this.taskDefs.get(def.name);
    if (!existing) throw new NotFoundError(`No such taskType found by name: ${quote(def.name)}`);
    const stored: TaskDef = { ...def, createTime: existing.createTime, updateTime: this.clock.now() };
    await this.taskDefs.put(stored);
    return stored;
  }

  async getTaskDef(name: string): Promise<TaskDef> {
    const def = await this.taskDefs.get(name);
    if (!def) throw new NotFoundError(`No such taskType found by name: ${quote(name)}`);
    return def;
  }

  listTaskDefs(): Promise<TaskDef[]> {
    return this.taskDefs.list();
  }

  async deleteTaskDef(name: string): Promise<void> {
    if (!(await this.taskDefs.delete(name)))
      throw new NotFoundError(`No such taskType found by name: ${quote(name)}`);
  }

  // ---- helpers ----

  private async validateWorkflowDefs(
    body: unknown,
    asArray: boolean,
  ): Promise<[WorkflowDef, ...WorkflowDef[]]> {
    const issues = new Issues();
    const items = asArray ? body : [body];
    if (!Array.isArray(items) || items.length === 0) {
      issues.add('body', 'must be a non-empty array of workflow definitions');
      issues.throwIfAny(INVALID_WORKFLOW);
    }
    const list = items as unknown[];
    // User-defined task types need a registered task definition: look those names up in one batch.
    const registered = await this.taskDefs.getMany(userDefinedTypeNames(list));
    const ctx = { taskDefExists: (name: string) => registered.has(name) };
    for (const [i, item] of list.entries()) checkWorkflowDef(issues, item, ctx, asArray ? `[${i}].` : '');
    issues.throwIfAny(INVALID_WORKFLOW);
    return list.map((item) => normalizeWorkflowDef(item as Record<string, unknown>)) as [
      WorkflowDef,
      ...WorkflowDef[],
    ];
  }

  private stamp(def: WorkflowDef, existing: WorkflowDef | undefined): WorkflowDef {
    const now = this.clock.now();
    if (!existing) return { ...def, createTime: now };
    return { ...def, createTime: existing.createTime ?? now, updateTime: now };
  }
}

function userDefinedTypeNames(items: unknown[]): string[] {
  const names = new Set<string>();
  for (const item of items) {
    if (!isObject(item)) continue;
    for (const task of rawTasksOf(item.tasks)) {
      if (typeof task.type === 'string' && !isKnownTaskType(task.type) && typeof task.name === 'string')
        names.add(task.name);
    }
  }
  return [...names];
}

function classifierOf(def: WorkflowDef): string {
  const classifier = def.metadata?.classifier;
  return typeof classifier === 'string' && classifier !== '' ? classifier : 'workflow';
}

function latestOfEach(defs: WorkflowDef[]): WorkflowDef[] {
  const latest = new Map<string, WorkflowDef>();
  for (const def of defs) {
    const seen = latest.get(def.name);
    if (!seen || seen.version < def.version) latest.set(def.name, def);
  }
  return [...latest.values()];
}

function summary(def: WorkflowDef): WorkflowDefSummary {
  return { name: def.name, version: def.version, createTime: def.createTime, updateTime: def.updateTime };
}
