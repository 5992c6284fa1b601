/**
 * One schema per request body. A body's JSON Schema (draft-07) is its only shape check: the router
 * checks a route's body against it before the handler runs, and services that take the same body
 * from elsewhere (a schedule's start request, an event handler's action) check it here with the
 * same schema and the same answer. Its TypeScript type is derived from the schema (FromSchema), so
 * the declared shape and the type the code reads cannot drift apart.
 *
 * Ajv's errors are worded as the hand-written checks always were: a per-keyword message below, and
 * per-field messages a body declares where Conductor words a field's problem its own way ("Task ID
 * cannot be null or empty"). What a schema cannot say (rules across fields, definition graphs)
 * stays in code and runs after the schema.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Issues } from './issues.ts';
import { ensureIsArray, ensureIsObject } from './shapes.ts';

/** A JSON Schema (draft-07) as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * One Ajv instance for the process; schemas are compiled once (Ajv caches by schema).
 * No coerceTypes: query strings are converted by the router, more strictly than Ajv would ('1e3'
 * and '0x10' are not integers there). No useDefaults: code states its own fallbacks. Strict: a
 * field that Conductor lets be null says so (`type: ['string', 'null']`, the one union strict mode
 * takes); one that takes a number or a numeric string lists them in `anyOf`.
 */
export const ajv = new Ajv({ allErrors: true, verbose: true, strict: true });

/**
 * Per-field wording, by body path (`status`, `tasks[0].name`): one message for every problem of the
 * field, or one per keyword. A message for `required` also answers a null value: Conductor reads a
 * null field as an absent one.
 */
export type FieldMessages = Readonly<Record<string, string | Readonly<Record<string, string>>>>;

/**
 * How a field's answer shows the offending value, by body path: by default as it is (scalars
 * only); `text` as a string; `omit` not at all (for fields whose answers never showed it).
 */
export type InvalidValues = Readonly<Record<string, 'text' | 'omit'>>;

/** Records a problem the schema cannot see: its body path, message and the value to show. */
export type AddIssue = (path: string, message: string, invalidValue?: unknown) => void;

export interface BodyWording {
  readonly messages?: FieldMessages;
  readonly invalidValues?: InvalidValues;
  /**
   * Rules a schema cannot express (one field required unless another holds it, a null allowed only
   * beside another field). They run after the schema on every object body, typed or not, and their
   * problems join the schema's in the same answer, in field order.
   */
  readonly check?: (body: Readonly<Record<string, unknown>>, add: AddIssue) => void;
}

export interface BodySchema<T = unknown> extends BodyWording {
  /** How error messages name the body ("Invalid TaskResult: ..."). */
  readonly title: string;
  readonly schema: JsonSchema;
  /** Never set: carries the type a body that passed the schema has. */
  readonly bodyType?: T;
}

/** Declares a body schema; `schema` is read as a literal, so FromSchema can type it. */
export function bodySchema<const S extends JsonSchema>(
  title: string,
  schema: S,
  wording: BodyWording = {},
): BodySchema<FromSchema<S>> & { readonly schema: S } {
  return { title, schema, ...wording };
}

/** The type a body that passed the schema has. */
export type BodyOf<B> = B extends BodySchema<infer T> ? T : unknown;

// The TypeScript type of the JSON Schema subset the bodies use: type (one or a list), enum, anyOf,
// properties with required, items. Anything else is `unknown`.
type TypeNamed<N> = N extends 'string'
  ? string
  : N extends 'integer' | 'number'
    ? number
    : N extends 'boolean'
      ? boolean
      : N extends 'null'
        ? null
        : N extends 'array'
          ? unknown[]
          : N extends 'object'
            ? Record<string, unknown>
            : never;

type Flat<T> = { [K in keyof T]: T[K] } & {};

type ObjectOf<P, R> = Flat<
  { -readonly [K in keyof P & R]: FromSchema<P[K]> } & {
    -readonly [K in Exclude<keyof P, R>]?: FromSchema<P[K]>;
  }
>;

export type FromSchema<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly anyOf: readonly (infer A)[] }
    ? FromSchema<A>
    : S extends { readonly type: 'object'; readonly properties: infer P }
      ? ObjectOf<P, S extends { readonly required: readonly (infer R)[] } ? R : never>
      : S extends { readonly type: 'array'; readonly items: infer I }
        ? FromSchema<I>[]
        : S extends { readonly type: infer T }
          ? T extends readonly (infer U)[]
            ? TypeNamed<U>
            : TypeNamed<T>
          : unknown;

/** The schema's validator, compiled on first use (Ajv keeps it by schema object); throws on an invalid schema. */
export function validatorOf(schema: JsonSchema): ValidateFunction {
  return ajv.compile(schema);
}

/**
 * Checks a body from outside the router against its schema and answers it typed. A route's body is
 * checked by the router already: its handler does not call this again.
 */
export function parseBody<T>(body: BodySchema<T>, value: unknown): T {
  checkBodyValue(body, validatorOf(body.schema), value);
  return value as T;
}

/**
 * The root shape is answered as ensureIsObject/ensureIsArray always answered; problems inside the
 * body are collected into one `Invalid <title>: ...` answer, in the order the schema declares the
 * fields, one entry per field and message.
 */
export function checkBodyValue(body: BodySchema, validate: ValidateFunction, value: unknown): void {
  const rootType = body.schema.type;
  if (rootType === 'array') ensureIsArray(value, body.title);
  if (rootType === 'object') ensureIsObject(value, body.title);
  const valid = validate(value);
  const found = (valid ? [] : (validate.errors ?? [])).map((error) => {
    const path = bodyPath(error);
    return {
      path,
      message: messageOf(body.messages?.[path], error),
      // A missing field has no value (Ajv's data of a `required` error is the object holding it).
      data: error.keyword === 'required' ? undefined : shownValue(body.invalidValues?.[path], error.data),
    };
  });
  if (body.check && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    body.check(value as Record<string, unknown>, (path, message, data) =>
      found.push({ path, message, data }),
    );
  }
  if (found.length === 0) return;
  const order = Object.keys((body.schema.properties as object | undefined) ?? {});
  const position = (path: string) => {
    const at = order.indexOf(path.split(/[.[]/)[0] ?? '');
    return at < 0 ? order.length : at;
  };
  const issues = new Issues();
  const seen = new Set<string>();
  for (const { path, message, data } of found.sort((a, b) => position(a.path) - position(b.path))) {
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.add(path, message, data);
  }
  issues.throwIfAny(`Invalid ${body.title}`);
}

/** `/tasks/0/name` → `tasks[0].name`, the path style of the definition checks. */
function bodyPath(error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1);
  if (error.keyword === 'required')
    segments.push((error.params as { missingProperty: string }).missingProperty);
  return segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '');
}

function shownValue(how: 'text' | 'omit' | undefined, value: unknown): unknown {
  if (how === 'omit' || (how === 'text' && (value === null || value === undefined))) return undefined;
  return how === 'text' ? String(value) : value;
}

function messageOf(field: FieldMessages[string] | undefined, error: ErrorObject): string {
  if (typeof field === 'string') return field;
  const keyword = error.data === null && field?.required ? 'required' : error.keyword;
  return field?.[keyword] ?? describe(error.parentSchema ?? {}, error);
}

/** Conductor's wording of each keyword's failure. */
export function describe(schema: JsonSchema, error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type': {
      // A field that may be null is described by the type it takes otherwise.
      const types = String((error.params as { type: string }).type)
        .split(',')
        .filter((t) => t !== 'null');
      const type = types.length === 1 ? (types[0] as string) : types.join(' or ');
      if (type === 'object') return 'must be a JSON object';
      return `must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
    }
    case 'enum':
      return `must be one of ${((error.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`;
    case 'minimum':
      return `must be greater than or equal to ${String(schema.minimum)}`;
    case 'maximum':
      return `must be less than or equal to ${String(schema.maximum)}`;
    case 'pattern':
      return typeof schema.description === 'string'
        ? `must be ${schema.description}`
        : 'has the wrong format';
    default:
      return error.message ?? 'is not valid';
  }
}
