/**
 * The validated, typed view of the `service.*` properties. Built once by loadConfig (or by tests
 * from a plain object) and passed down; nothing else reads the environment.
 */
import { GATES, type GateName } from './properties.ts';

type Value = string | number | boolean;

export class ServiceConfig {
  constructor(private readonly values: ReadonlyMap<string, Value>) {}

  has(name: string): boolean {
    return this.values.has(name);
  }

  string(name: string): string | undefined {
    const value = this.values.get(name);
    return value === undefined ? undefined : String(value);
  }

  requireString(name: string): string {
    const value = this.string(name);
    if (value === undefined) throw new Error(`Property ${name} is not set`);
    return value;
  }

  number(name: string): number {
    const value = this.values.get(name);
    if (typeof value !== 'number') throw new Error(`Property ${name} is not a number`);
    return value;
  }

  boolean(name: string): boolean {
    return this.values.get(name) === true;
  }

  gate(name: GateName): boolean {
    return this.boolean(GATES[name]);
  }

  /** Entries of a list property such as `service.file-storage.service.signing.keys[n]`, by index. */
  list(prefix: string): Record<string, Value>[] {
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
