/**
 * Schema references in definitions (`inputSchema` / `outputSchema`: `{name, version?}`, latest when
 * no version) and what a picker offers for them: the registered names, the versions of the chosen
 * name, and whether the reference names a schema the registry does not hold.
 */
export interface SchemaRef {
  name: string;
  version?: number;
}

export type SchemaField = 'inputSchema' | 'outputSchema';

/** The registry as the pickers read it: name -> versions (highest first). */
export type Registry = ReadonlyMap<string, readonly number[]>;

export function registryOf(records: readonly { name: string; version: number }[]): Registry {
  const map = new Map<string, number[]>();
  for (const { name, version } of records) map.set(name, [...(map.get(name) ?? []), version]);
  for (const versions of map.values()) versions.sort((a, b) => b - a);
  return new Map([...map.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/** A definition field read as a reference; anything that is not one reads as none. */
export function refOf(
  holder: Record<string, unknown> | undefined,
  field: SchemaField,
): SchemaRef | undefined {
  const value = holder?.[field];
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, version } = value as { name?: unknown; version?: unknown };
  if (typeof name !== 'string' || name === '') return undefined;
  return typeof version === 'number' && version > 0 ? { name, version } : { name };
}

/** Why a reference cannot be resolved in the registry, or undefined when it can (or is empty). */
export function unregistered(registry: Registry, ref: SchemaRef | undefined): string | undefined {
  if (!ref) return undefined;
  const versions = registry.get(ref.name);
  if (!versions) return `Schema ${ref.name} is not registered`;
  if (ref.version !== undefined && !versions.includes(ref.version)) {
    return `Schema ${ref.name} has no version ${ref.version}`;
  }
  return undefined;
}

/** Sets or clears a reference on a copy of the holder. */
export function withRef<T extends Record<string, unknown>>(
  holder: T,
  field: SchemaField,
  ref: SchemaRef | undefined,
): T {
  const copy: Record<string, unknown> = { ...holder };
  if (ref)
    copy[field] = ref.version === undefined ? { name: ref.name } : { name: ref.name, version: ref.version };
  else delete copy[field];
  return copy as T;
}
