/**
 * In-memory definition stores: for tests, benchmarks and `SERVICE_STORE=memory`. A definition is
 * copied once when written and frozen; reads hand out that frozen object, so no caller can change
 * what is stored and reads (every workflow start) cost no copy. Tags are kept by name in a table of
 * their own; a change of them reads and writes with no await between, so it is atomic.
 */
import type { TaskDef, WorkflowDef } from '../../model/definitions.ts';
import { ConflictError } from '../../model/errors.ts';
import type { Tag } from '../../model/tags.ts';
import { deepFreeze } from '../deep-freeze.ts';
import { type KeyedTable, keyOf, memoryTables, type TableSource } from '../keyed.ts';
import type { DefinitionTags, TaskDefStore, WorkflowDefStore } from '../ports.ts';

// Definitions are JSON documents; a JSON round trip copies them faster than structuredClone.
const frozenCopy = <T>(value: T): T => deepFreeze(JSON.parse(JSON.stringify(value)) as T);

/** Tags by name, over one keyed table; `exists` says whether the name has a definition. */
class TagTable implements DefinitionTags {
  constructor(
    private readonly table: KeyedTable<Tag[]>,
    private readonly exists: (name: string) => boolean,
  ) {}

  async tags(name: string): Promise<Tag[]> {
    return structuredClone(this.table.get(name) ?? []);
  }

  async allTags(): Promise<Map<string, Tag[]>> {
    return new Map([...this.table.entries()].map(([name, tags]) => [name, structuredClone(tags)]));
  }

  async changeTags(name: string, change: (tags: Tag[]) => Tag[]): Promise<Tag[] | undefined> {
    if (!this.exists(name)) return undefined;
    const next = structuredClone(change(structuredClone(this.table.get(name) ?? [])));
    if (next.length === 0) this.table.delete(name);
    else this.table.set(name, next);
    return structuredClone(next);
  }

  forget(name: string): void {
    this.table.delete(name);
  }
}

/** A definition store's tags (DefinitionTags), kept in a table of their own by name. */
abstract class TaggedDefinitions implements DefinitionTags {
  protected readonly tagTable: TagTable;

  constructor(tags: KeyedTable<Tag[]>) {
    this.tagTable = new TagTable(tags, (name) => this.hasName(name));
  }

  /** Whether a definition of the name exists (only its tags can change). */
  protected abstract hasName(name: string): boolean;

  tags(name: string): Promise<Tag[]> {
    return this.tagTable.tags(name);
  }

  allTags(): Promise<Map<string, Tag[]>> {
    return this.tagTable.allTags();
  }

  changeTags(name: string, change: (tags: Tag[]) => Tag[]): Promise<Tag[] | undefined> {
    return this.tagTable.changeTags(name, change);
  }
}

export class MemoryWorkflowDefStore extends TaggedDefinitions implements WorkflowDefStore {
  /** Every version, by name and version (what is stored); `byName` is built from it. */
  private readonly stored;
  private readonly byName = new Map<string, Map<number, WorkflowDef>>();

  constructor(tables: TableSource = memoryTables) {
    super(tables.table<Tag[]>('workflow-def-tags'));
    this.stored = tables.table<WorkflowDef>('workflow-defs');
    for (const def of this.stored.values()) this.versionsOf(def.name).set(def.version, deepFreeze(def));
  }

  protected hasName(name: string): boolean {
    return Boolean(this.byName.get(name)?.size);
  }

  private versionsOf(name: string): Map<number, WorkflowDef> {
    let versions = this.byName.get(name);
    if (!versions) {
      versions = new Map();
      this.byName.set(name, versions);
    }
    return versions;
  }

  async put(def: WorkflowDef, options: { overwrite: boolean }): Promise<void> {
    const versions = this.versionsOf(def.name);
    if (!options.overwrite && versions.has(def.version)) {
      throw new ConflictError(`Workflow with ${def.name}.${def.version} already exists!`);
    }
    const copy = frozenCopy(def);
    this.stored.set(keyOf(def.name, def.version), copy);
    versions.set(def.version, copy);
  }

  async get(name: string, version?: number): Promise<WorkflowDef | undefined> {
    const versions = this.byName.get(name);
    if (!versions || versions.size === 0) return undefined;
    const key = version ?? Math.max(...versions.keys());
    const def = versions.get(key);
    return def;
  }

  async versions(name: string): Promise<WorkflowDef[]> {
    const versions = this.byName.get(name);
    if (!versions) return [];
    return [...versions.values()].sort((a, b) => a.version - b.version);
  }

  async list(): Promise<WorkflowDef[]> {
    const names = [...this.byName.keys()].sort();
    const out: WorkflowDef[] = [];
    for (const name of names) out.push(...(await this.versions(name)));
    return out;
  }

  async delete(name: string, version: number): Promise<boolean> {
    const versions = this.byName.get(name);
    if (!versions?.delete(version)) return false;
    this.stored.delete(keyOf(name, version));
    if (versions.size === 0) {
      this.byName.delete(name);
      this.tagTable.forget(name);
    }
    return true;
  }
}

export class MemoryTaskDefStore extends TaggedDefinitions implements TaskDefStore {
  private readonly byName;

  constructor(tables: TableSource = memoryTables) {
    super(tables.table<Tag[]>('task-def-tags'));
    this.byName = tables.table<TaskDef>('task-defs');
    for (const def of this.byName.values()) deepFreeze(def);
  }

  protected hasName(name: string): boolean {
    return this.byName.has(name);
  }

  async put(def: TaskDef): Promise<void> {
    this.byName.set(def.name, frozenCopy(def));
  }

  async get(name: string): Promise<TaskDef | undefined> {
    const def = this.byName.get(name);
    return def;
  }

  async getMany(names: readonly string[]): Promise<Map<string, TaskDef>> {
    const out = new Map<string, TaskDef>();
    for (const name of names) {
      const def = this.byName.get(name);
      if (def) out.set(name, def);
    }
    return out;
  }

  async list(): Promise<TaskDef[]> {
    return [...this.byName.keys()].sort().map((name) => this.byName.get(name) as TaskDef);
  }

  async delete(name: string): Promise<boolean> {
    this.tagTable.forget(name);
    return this.byName.delete(name);
  }
}
