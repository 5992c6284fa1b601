/**
 * The only reader of the environment and of property files. Sources, highest first: environment
 * variables (`service.scheduler.enabled` -> `SERVICE_SCHEDULER_ENABLED`; `keys[0].id` ->
 * `KEYS_0_ID`), a properties file, the defaults in properties.ts. Values are validated once, at start:
 * a wrong value stops the start with a message naming the property, and so does an unknown key in a
 * properties file. An environment variable starting with `SERVICE_` that names no property (a typo:
 * `SERVICE_SCHEDULR_ENABLED`) is a warning naming the closest property (ServiceConfig.warnings,
 * which each host writes out), or, with `service.config.strict=true`, a configuration error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { PROPERTIES, type PropertySpec } from './properties.ts';
import { ServiceConfig } from './service-config.ts';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface LoadOptions {
  env?: Record<string, string | undefined>;
  /** Explicit properties file (`--config FILE`); it must exist. */
  file?: string;
  /** Working directory searched for `service.properties` when no file is given. */
  cwd?: string;
  /** Properties table; tests may pass a smaller one. */
  properties?: readonly PropertySpec[];
  /** Highest-priority values, e.g. from a test or the CDK stack; validated like any other source. */
  overrides?: Record<string, string | number | boolean>;
}

/** `service.file-storage.service.signing.keys[0].id` -> `SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_0_ID`. */
export function envNameOf(property: string): string {
  return property
    .replace(/\[(\w+)\]/g, '.$1')
    .replace(/[.-]/g, '_')
    .toUpperCase();
}

/** Parses Java-style `.properties` text: `key=value` or `key: value`, `#`/`!` comments. */
export function parseProperties(source: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const rawLine of source.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const at = line.search(/[=:]/);
    if (at <= 0) throw new ConfigError(`Properties file line is not 'key=value': ${line}`);
    result.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return result;
}

export function loadConfig(options: LoadOptions = {}): ServiceConfig {
  const env = options.env ?? process.env;
  const specs = options.properties ?? PROPERTIES;
  const raw = new Map<string, string>();

  const file = options.file ?? resolve(options.cwd ?? process.cwd(), 'service.properties');
  if (options.file && !existsSync(options.file))
    throw new ConfigError(`Config file not found: ${options.file}`);
  if (existsSync(file)) {
    for (const [key, value] of parseProperties(readFileSync(file, 'utf8'))) {
      if (!findSpec(specs, key)) throw new ConfigError(`Unknown property '${key}' in ${file}`);
      raw.set(key, value);
    }
  }

  const unknown = unknownServiceVariables(env, specs);

  // PORT is the conventional way to pick a port: above the file, below SERVICE_SERVER_PORT.
  if (env.PORT) raw.set('service.server.port', env.PORT);
  for (const spec of specs) {
    if (spec.name.includes('{table}')) {
      // `service.dynamodb.tables.{table}` -> `SERVICE_DYNAMODB_TABLES_<ID>`.
      const pattern = new RegExp(`^${envNameOf(spec.name.replace('{table}', ''))}([A-Z0-9]+)$`);
      for (const [key, value] of Object.entries(env)) {
        const id = pattern.exec(key)?.[1];
        if (id !== undefined && value !== undefined && value !== '')
          raw.set(spec.name.replace('{table}', id.toLowerCase()), value);
      }
    } else if (spec.name.includes('[n]')) {
      const pattern = new RegExp(
        `^${envNameOf(spec.name).replace('_N_', '_(\\d+)_').replace(/_N$/, '_(\\d+)')}$`,
      );
      for (const [key, value] of Object.entries(env)) {
        const index = pattern.exec(key)?.[1];
        // Empty counts as absent, as for plain keys: `KEYS_0_ID=` must not create an entry.
        if (index !== undefined && value !== undefined && value !== '')
          raw.set(spec.name.replace('[n]', `[${index}]`), value);
      }
    } else {
      const value = env[envNameOf(spec.name)];
      if (value !== undefined && value !== '') raw.set(spec.name, value);
    }
  }
  for (const [key, value] of Object.entries(options.overrides ?? {})) {
    if (!findSpec(specs, key)) throw new ConfigError(`Unknown property '${key}'`);
    raw.set(key, String(value));
  }

  const values = new Map<string, string | number | boolean>();
  for (const spec of specs) {
    if (spec.default !== undefined && !spec.name.includes('[n]') && !spec.name.includes('{table}'))
      values.set(spec.name, spec.default);
  }
  for (const [key, text] of raw) {
    const spec = findSpec(specs, key) as PropertySpec;
    values.set(key, convert(spec, key, text));
  }
  if (!values.has('service.instance-id')) values.set('service.instance-id', hostname());
  const warnings = unknown.map(describeUnknown);
  if (values.get(STRICT) === true && warnings.length > 0) {
    throw new ConfigError(
      `${warnings.join('; ')} (${STRICT} is on: fix or remove ${unknown.length === 1 ? 'it' : 'them'})`,
    );
  }
  return new ServiceConfig(values, warnings);
}

/** Refuse unknown `SERVICE_*` variables instead of warning of them. */
const STRICT = 'service.config.strict';

/** An environment variable that looks like a property's (`SERVICE_...`) but names none. */
export interface UnknownVariable {
  name: string;
  /** The property whose variable is nearest to it (edit distance), when there is any property. */
  closest?: { property: string; variable: string };
}

/**
 * The `SERVICE_*` environment variables no property reads, each with the property whose variable is
 * closest to it. Only names count: a known variable set to an empty value is not unknown.
 */
export function unknownServiceVariables(
  env: Readonly<Record<string, unknown>>,
  specs: readonly PropertySpec[] = PROPERTIES,
): UnknownVariable[] {
  const patterns = specs.map((spec) => ({ spec, pattern: envPatternOf(spec) }));
  return Object.keys(env)
    .filter((name) => name.startsWith('SERVICE_'))
    .filter((name) => !patterns.some(({ pattern }) => pattern.test(name)))
    .sort()
    .map((name) => {
      let closest: UnknownVariable['closest'];
      let best = Number.POSITIVE_INFINITY;
      for (const { spec } of patterns) {
        const variable = exampleVariableOf(spec, name);
        const distance = editDistance(name, variable);
        if (distance < best) {
          best = distance;
          closest = { property: spec.name, variable };
        }
      }
      return { name, closest };
    });
}

function describeUnknown({ name, closest }: UnknownVariable): string {
  const hint = closest ? `; the closest is ${closest.property} (${closest.variable})` : '';
  return `Unknown environment variable ${name}: no property is read from it${hint}`;
}

/** The environment variables a spec reads: its name, with any list index or table id. */
function envPatternOf(spec: PropertySpec): RegExp {
  if (spec.name.includes('{table}')) {
    return new RegExp(`^${envNameOf(spec.name.replace('{table}', ''))}[A-Z0-9]+$`);
  }
  if (spec.name.includes('[n]')) {
    return new RegExp(`^${envNameOf(spec.name).replace('_N_', '_\\d+_').replace(/_N$/, '_\\d+')}$`);
  }
  return new RegExp(`^${envNameOf(spec.name)}$`);
}

/** A variable of the spec to compare `name` with: a list index or table id taken from `name` if it has one. */
function exampleVariableOf(spec: PropertySpec, name: string): string {
  if (spec.name.includes('[n]')) {
    const index = /_(\d+)(_|$)/.exec(name)?.[1] ?? '0';
    return envNameOf(spec.name.replace('[n]', `[${index}]`));
  }
  if (spec.name.includes('{table}')) {
    const prefix = envNameOf(spec.name.replace('{table}', ''));
    const id = name.startsWith(prefix) ? name.slice(prefix.length) : 'DEFINITIONS';
    return `${prefix}${id || 'DEFINITIONS'}`;
  }
  return envNameOf(spec.name);
}

/** Levenshtein distance: insertions, deletions and substitutions of one character. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** Defaults plus the given values, with no environment and no file: for tests and embedding. */
export function configOf(overrides: Record<string, string | number | boolean> = {}): ServiceConfig {
  return loadConfig({ env: {}, file: undefined, cwd: '/nonexistent-config-dir', overrides });
}

/** The spec a concrete property name (`keys[0].id`, `tables.definitions`) falls under, if any. */
export function findSpec(specs: readonly PropertySpec[], key: string): PropertySpec | undefined {
  const generic = key
    .replace(/\[\d+\]/g, '[n]')
    .replace(/^(service\.dynamodb\.tables\.)[a-z0-9]+$/, '$1{table}');
  return specs.find((s) => s.name === generic);
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function convert(spec: PropertySpec, key: string, text: string): string | number | boolean {
  const type = spec.type;
  switch (type.kind) {
    case 'boolean': {
      const lower = text.toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
      throw new ConfigError(`Property ${key} must be true or false, got '${text}'`);
    }
    case 'integer': {
      if (!/^-?\d+$/.test(text)) throw new ConfigError(`Property ${key} must be an integer, got '${text}'`);
      const value = Number(text);
      if ((type.min !== undefined && value < type.min) || (type.max !== undefined && value > type.max)) {
        throw new ConfigError(
          `Property ${key} must be within ${type.min ?? '-∞'}..${type.max ?? '∞'}, got ${value}`,
        );
      }
      return value;
    }
    case 'duration': {
      const match = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(text.trim());
      if (!match) {
        throw new ConfigError(
          `Property ${key} must be a number of seconds or a number with a unit (ms, s, m, h, d), got '${text}'`,
        );
      }
      return Number(match[1]) * (DURATION_UNITS[match[2] ?? 's'] ?? 1000);
    }
    case 'enum':
      if (!type.values.includes(text)) {
        throw new ConfigError(`Property ${key} must be one of ${type.values.join(', ')}, got '${text}'`);
      }
      return text;
    case 'string':
      return text;
  }
}
