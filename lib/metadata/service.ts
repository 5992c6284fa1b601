/**
 * The definitions service behind /api/metadata: validation, Conductor's defaults and audit times,
 * the listing filters the official UI sends, and the definitions' tags (Orkes; lib/model/tags.ts).
 * Storage goes through the definition ports, which keep the tags beside the definitions: this
 * service puts them into what it answers (`tags`, when there are any) and takes them from the
 * definitions it is given (a definition saved with `tags` replaces its name's, or adds to them
 * with Orkes' `overwriteTags: false`; one saved without keeps them).
 */
import type { Clock } from '../model/clock.ts';
import type { TaskDef, WorkflowDef, WorkflowDefSummary } from '../model/definitions.ts';
import { ConflictError, errorMessage, NotFoundError, quote } from '../model/errors.ts';
import {
  applyTagChange,
  type Tag,
  type TagChange,
  type TagView,
  tagsField,
  tagViews,
} from '../model/tags.ts';
import { isKnownTaskType } from '../model/task-types/index.ts';
import type { DefinitionTags, TaskDefStore, WorkflowDefStore } from '../store/ports.ts';
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

/** A definition as answered: with its name's tags, when it has any. */
export type Tagged<D> = D & { tags?: TagView[] };

/** What a tag route does to a definition's tags. */

/** The tag routes' two kinds of definition. */
export type DefinitionKind = 'workflow' | 'task';

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
    await this.keepTagsOf(this.workflowDefs, def.name, body);
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
    for (const [i, def] of defs.entries()) {
      try {
        if (options.newVersion) await this.putNextVersion(def);
        else {
          const existing = await this.workflowDefs.get(def.name, def.version);
          await this.workflowDefs.put(this.stamp(def, existing), { overwrite: true });
        }
        await this.keepTagsOf(this.workflowDefs, def.name, (body as unknown[])[i]);
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

  async getWorkflowDef(name: string, version?: number): Promise<Tagged<WorkflowDef>> {
    const def = await this.workflowDefs.get(name, version);
    if (!def)
      throw new NotFoundError(
        `No such workflow found by name: ${quote(name)}, version: ${quote(version ?? 'latest')}`,
      );
    return tagged(def, await this.workflowDefs.tags(name));
  }

  /** The definition, or undefined (for callers with their own not-found message). */
  findWorkflowDef(name: string, version?: number): Promise<WorkflowDef | undefined> {
    return this.workflowDefs.get(name, version);
  }

  async listWorkflowDefs(filter: WorkflowDefListing = {}): Promise<Tagged<WorkflowDef>[]> {
    const [found, tags] = await Promise.all([
      filter.name !== undefined ? this.workflowDefs.versions(filter.name) : this.workflowDefs.list(),
      filter.name !== undefined
        ? this.workflowDefs.tags(filter.name).then((t) => new Map([[filter.name as string, t]]))
        : this.workflowDefs.allTags(),
    ]);
    let defs = found;
    if (filter.classifier !== undefined) defs = defs.filter((d) => classifierOf(d) === filter.classifier);
    if (filter.latestOnly) defs = latestOfEach(defs);
    if (filter.short) defs = defs.map((d) => ({ ...d, tasks: [] }));
    return defs.map((d) => tagged(d, tags.get(d.name)));
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
    for (const [i, def] of stored.entries()) {
      await this.taskDefs.put(def);
      await this.keepTagsOf(this.taskDefs, def.name, (body as unknown[])[i]);
    }
    return stored;
  }

  async updateTaskDef(body: unknown): Promise<TaskDef> {
    const def = validateTaskDef(body);
    const existing = await this.taskDefs.get(def.name);
    if (!existing) throw new NotFoundError(`No such taskType found by name: ${quote(def.name)}`);
    const stored: TaskDef = { ...def, createTime: existing.createTime, updateTime: this.clock.now() };
    await this.taskDefs.put(stored);
    await this.keepTagsOf(this.taskDefs, def.name, body);
    return stored;
  }

  async getTaskDef(name: string): Promise<Tagged<TaskDef>> {
    const def = await this.taskDefs.get(name);
    if (!def) throw new NotFoundError(`No such taskType found by name: ${quote(name)}`);
    return tagged(def, await this.taskDefs.tags(name));
  }

  async listTaskDefs(): Promise<Tagged<TaskDef>[]> {
    const [defs, tags] = await Promise.all([this.taskDefs.list(), this.taskDefs.allTags()]);
    return defs.map((d) => tagged(d, tags.get(d.name)));
  }

  async deleteTaskDef(name: string): Promise<void> {
    if (!(await this.taskDefs.delete(name)))
      throw new NotFoundError(`No such taskType found by name: ${quote(name)}`);
  }

  // ---- tags (Orkes: /api/metadata/workflow/{name}/tags, /api/metadata/task/{taskName}/tags) ----

  /** The tags of a definition; 404 when there is none of that name. */
  async tags(kind: DefinitionKind, name: string): Promise<TagView[]> {
    if (!(await this.exists(kind, name))) throw notFound(kind, name);
    return tagViews(await this.storeOf(kind).tags(name));
  }

  /** Adds, replaces or removes tags of a definition, atomically; 404 when there is none of that name. */
  async changeTags(kind: DefinitionKind, name: string, change: TagChange): Promise<void> {
    const changed = await this.storeOf(kind).changeTags(name, (current) => applyTagChange(current, change));
    if (changed === undefined) throw notFound(kind, name);
  }

  private storeOf(kind: DefinitionKind): DefinitionTags {
    return kind === 'workflow' ? this.workflowDefs : this.taskDefs;
  }

  private async exists(kind: DefinitionKind, name: string): Promise<boolean> {
    return kind === 'workflow'
      ? (await this.workflowDefs.get(name)) !== undefined
      : (await this.taskDefs.get(name)) !== undefined;
  }

  /**
   * The tags a saved definition's body carries replace its name's (or, with `overwriteTags: false`,
   * join them); a body without `tags` leaves them as they are.
   */
  private async keepTagsOf(store: DefinitionTags, name: string, body: unknown): Promise<void> {
    const raw = body as { tags?: unknown; overwriteTags?: unknown } | undefined;
    const given = tagsField(raw?.tags, 'tags');
    if (given === undefined) return;
    const replace = raw?.overwriteTags !== false;
    const change: TagChange = replace ? { replace: given } : { add: given };
    await store.changeTags(name, (current) => applyTagChange(current, change));
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

/**
 * A definition with its tags as answered (none: no `tags` field). A definition saved before tags
 * were kept apart may hold a `tags` field of its own, never served as its tags: it is left out.
 */
function tagged<D extends object>(def: D, tags: readonly Tag[] | undefined): Tagged<D> {
  const {
    tags: _own,
    overwriteTags: _overwrite,
    ...rest
  } = def as D & { tags?: unknown; overwriteTags?: unknown };
  return (tags && tags.length > 0 ? { ...rest, tags: tagViews(tags) } : rest) as Tagged<D>;
}

function notFound(kind: DefinitionKind, name: string): NotFoundError {
  return kind === 'workflow'
    ? new NotFoundError(`No such workflow found by name: ${quote(name)}`)
    : new NotFoundError(`No such taskType found by name: ${quote(name)}`);
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
