/**
 * The validated, typed view of the `service.*` properties. Built once by loadConfig (or by tests
 * from a plain object) and passed down; nothing else reads the environment.
 */
import { GATES, type GateName, type ListPropertyName, type PropertyName } from './properties.ts';

type Value = string | number | boolean;

export class ServiceConfig {
  /**
   * @param warnings what the loader found suspicious but not wrong (an unknown `SERVICE_*`
   *   variable), one sentence each: each host writes them out at start (stderr, the log).
   */
  constructor(
    private readonly values: ReadonlyMap<string, Value>,
    readonly warnings: readonly string[] = [],
  ) {}

  /** Any name may be asked about: an unknown one is simply absent. */
  has(name: string): boolean {
    return this.values.has(name);
  }

  string(name: PropertyName): string | undefined {
    const value = this.values.get(name);
    return value === undefined ? undefined : String(value);
  }

  requireString(name: PropertyName): string {
    const value = this.string(name);
    if (value === undefined) throw new Error(`Property ${name} is not set`);
    return value;
  }

  number(name: PropertyName): number {
    const value = this.values.get(name);
    if (typeof value !== 'number') throw new Error(`Property ${name} is not a number`);
    return value;
  }

  boolean(name: PropertyName): boolean {
    return this.values.get(name) === true;
  }

  /** An enum property's value, typed by the values the caller accepts. */
  oneOf<T extends string>(name: PropertyName, values: readonly T[]): T {
    const value = this.requireString(name);
    if (!(values as readonly string[]).includes(value)) {
      throw new Error(`Property ${name} must be one of ${values.join(', ')}, got '${value}'`);
    }
    return value as T;
  }

  gate(name: GateName): boolean {
    return this.boolean(GATES[name]);
  }

  /** Entries of a list property such as `service.file-storage.service.signing.keys[n]`, by index. */
  list(prefix: ListPropertyName): Record<string, Value>[] {
    const byIndex = new Map<number, Record<string, Value>>();
    const pattern = new RegExp(`^${prefix.replace(/[.[\]]/g, '\\$&')}\\[(\\d+)\\]\\.(.+)$`);
    for (const [key, value] of this.values) {
      const m = pattern.exec(key);
      if (!m) continue;
      const index = Number(m[1]);
      const entry = byIndex.get(index) ?? {};
      entry[m[2] as string] = value;
      byIndex.set(index, entry);
    }
    return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
  }

  /** Properties to hand to a Lambda as environment variables (used by the CDK stack). */
  entries(): [string, Value][] {
    return [...this.values.entries()];
  }
}
