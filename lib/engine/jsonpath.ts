/**
 * Jayway-style JSONPath reads for `${...}` templates (docs/conductor-compat.md §4.8.2). Paths come without
 * the leading `$.`. Plain paths (`a.b[0]['c-d']`) are walked here, with no library call: the engine
 * resolves templates on every schedule. Wildcards, filters, slices, unions and recursive descent go to
 * jsonpath-plus (default safe eval; never "native"). A trailing Jayway function such as `.length()`
 * applies to the path's result. Reads never throw: a missing or malformed path is null, like Jayway with
 * SUPPRESS_EXCEPTIONS.
 */
import { JSONPath } from 'jsonpath-plus';

/** Where paths are read from. */
export interface PathRoot {
  /** The value a path's first name refers to, or undefined. */
  lookup(name: string): unknown;
  /** The whole root as one object, for paths the plain walker cannot follow. */
  document(): Record<string, unknown>;
}

type Segment = string | number;
type PathFunction = (value: unknown) => unknown;

interface CompiledPath {
  /** Unbalanced brackets, parentheses or quotes: Jayway rejects the path, so it reads as null. */
  malformed: boolean;
  /** Set when the walker can follow the path; otherwise jsonpath-plus reads `expression`. */
  segments?: Segment[];
  expression: string;
  /** An indefinite path (wildcard, filter, …) yields a list, possibly empty; a definite one a value or null. */
  definite: boolean;
  fn?: PathFunction;
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const numbers = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];

/** Jayway throws on an empty aggregate; suppressed, that is null. */
const aggregate =
  (reduce: (values: number[]) => number): PathFunction =>
  (value) => {
    const values = numbers(value);
    return values.length === 0 ? null : reduce(values);
  };

const sum = (values: number[]): number => values.reduce((total, item) => total + item, 0);
const avg = (values: number[]): number => sum(values) / values.length;
const size: PathFunction = (value) =>
  Array.isArray(value) ? value.length : isMap(value) ? Object.keys(value).length : null;

/** Jayway's argument-less path functions. */
const FUNCTIONS = new Map<string, PathFunction>([
  ['length', size],
  ['size', size],
  ['min', aggregate((values) => Math.min(...values))],
  ['max', aggregate((values) => Math.max(...values))],
  ['sum', aggregate(sum)],
  ['avg', aggregate(avg)],
  ['stddev', aggregate((values) => Math.sqrt(avg(values.map((item) => (item - avg(values)) ** 2))))],
  ['keys', (value) => (isMap(value) ? Object.keys(value) : null)],
  ['first', (value) => (Array.isArray(value) ? (value[0] ?? null) : null)],
  ['last', (value) => (Array.isArray(value) ? (value[value.length - 1] ?? null) : null)],
]);

const FUNCTION_SUFFIX = /^(.+)\.([A-Za-z]+)\(\)$/s;
/** Characters that make a dot-notation name something other than a plain property. */
const NOT_PLAIN_NAME = /[*()?@'"\s\]$,:]/;
const QUOTED_NAME = /^'([^'\\]*)'$|^"([^"\\]*)"$/;
const INDEX = /^-?\d+$/;
const INDEFINITE = /\.\.|\*|\[\s*\?|\[[^\]]*[,:]/;

/** Splits `a.b[0]['c']` into names and indexes, or returns undefined for anything more. */
function plainSegments(path: string): Segment[] | undefined {
  const segments: Segment[] = [];
  let pos = path.startsWith('$.') ? 2 : path.startsWith('$[') ? 1 : 0;
  while (pos < path.length) {
    if (path[pos] === '[') {
      const close = path.indexOf(']', pos);
      if (close < 0) return undefined;
      const inner = path.slice(pos + 1, close);
      const quoted = QUOTED_NAME.exec(inner);
      if (quoted) segments.push(quoted[1] ?? quoted[2] ?? '');
      else if (INDEX.test(inner)) segments.push(Number(inner));
      else return undefined;
      pos = close + 1;
      continue;
    }
    if (segments.length > 0) {
      if (path[pos] !== '.') return undefined;
      pos++;
    }
    let end = pos;
    while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
    const name = path.slice(pos, end);
    if (name === '' || NOT_PLAIN_NAME.test(name)) return undefined;
    segments.push(name);
    pos = end;
  }
  return typeof segments[0] === 'string' ? segments : undefined;
}

/** Whether brackets and parentheses pair up and quotes close, ignoring what is inside quotes. */
function balanced(path: string): boolean {
  const open: string[] = [];
  let quote: string | undefined;
  for (const ch of path) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '[' || ch === '(') open.push(ch);
    else if ((ch === ']' && open.pop() !== '[') || (ch === ')' && open.pop() !== '(')) return false;
  }
  return quote === undefined && open.length === 0;
}

function compile(path: string): CompiledPath {
  const call = FUNCTION_SUFFIX.exec(path);
  const fn = call?.[2] === undefined ? undefined : FUNCTIONS.get(call[2]);
  const base = fn && call?.[1] !== undefined ? call[1] : path;
  const expression = base.startsWith('$') ? base : base.startsWith('[') ? `$${base}` : `$.${base}`;
  const segments = plainSegments(base);
  const malformed = segments === undefined && !balanced(base);
  return { malformed, segments, expression, definite: !INDEFINITE.test(base), fn };
}

function walk(root: PathRoot, segments: Segment[]): unknown {
  let value = root.lookup(String(segments[0]));
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i];
    if (typeof segment === 'number') {
      if (!Array.isArray(value)) return undefined;
      value = value[segment < 0 ? value.length + segment : segment];
    } else {
      if (!isMap(value) || segment === undefined || !Object.hasOwn(value, segment)) return undefined;
      value = value[segment];
    }
  }
  return value;
}

function query(root: PathRoot, compiled: CompiledPath): unknown {
  try {
    const matches: unknown = JSONPath({
      path: compiled.expression,
      json: root.document(),
      wrap: true,
      eval: 'safe',
      ignoreEvalErrors: true,
    });
    if (!Array.isArray(matches)) return null;
    return compiled.definite ? matches[0] : matches;
  } catch {
    return compiled.definite ? null : [];
  }
}

const MAX_CACHED_PATHS = 10_000;
const compiled = new Map<string, CompiledPath>();

function compiledPath(path: string): CompiledPath {
  let entry = compiled.get(path);
  if (entry === undefined) {
    if (compiled.size >= MAX_CACHED_PATHS) {
      compiled.clear();
      // jsonpath-plus keeps its own unbounded cache of parsed paths; paths built from data grow it.
      JSONPath.cache = {};
    }
    entry = compile(path);
    compiled.set(path, entry);
  }
  return entry;
}

/**
 * Reads `path` (Jayway syntax, `$.` optional) from `root`. Missing → null; an indefinite path (wildcard,
 * filter, slice, union, `..`) → the list of matches, even when it holds one item or none.
 */
export function readPath(path: string, root: PathRoot): unknown {
  const entry = compiledPath(path);
  if (entry.malformed) return null;
  const value = entry.segments ? walk(root, entry.segments) : query(root, entry);
  const result = entry.fn ? entry.fn(value) : value;
  return result === undefined ? null : result;
}
