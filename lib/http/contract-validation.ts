/**
 * Checks requests against route contracts with Ajv: one instance for the process (shared with the
 * body checks of lib/validation/body-schema.ts), every schema compiled once when the router is
 * built (never per request). Ajv's errors become the project's ValidationError, phrased as the
 * hand-written checks they replace were phrased, so clients see the same answers as before
 * (`Query parameter 'count' must be an integer, got 'x'`).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { quote, ValidationError } from '../model/errors.ts';
import { ajv, checkBodyValue, describe, validatorOf } from '../validation/body-schema.ts';
import { ensureIsObject } from '../validation/shapes.ts';
import type { BodyContract, JsonSchema, ParamsSchema, RequestContract } from './contract.ts';

export interface CompiledContract {
  params?: ValidateFunction;
  query?: ValidateFunction;
  body?: ValidateFunction;
}

/** Compiles a route's schemas; throws at startup on an invalid schema. Ajv caches by schema. */
export function compileContract(request: RequestContract | undefined): CompiledContract {
  return {
    params: request?.params ? ajv.compile(request.params) : undefined,
    query: request?.query ? ajv.compile(request.query) : undefined,
    body: request?.body ? validatorOf(request.body.schema) : undefined,
  };
}

/**
 * Turns the strings of path or query parameters into the declared types. A value that does not
 * convert stays a string, so Ajv reports it with the raw text.
 */
export function coerceValues(schema: ParamsSchema, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const [name, property] of Object.entries(schema.properties)) {
    const raw = out[name];
    if (typeof raw !== 'string') continue;
    if (property.type === 'integer' && /^-?\d+$/.test(raw.trim()) && Number.isSafeInteger(Number(raw))) {
      out[name] = Number(raw);
    } else if (property.type === 'boolean' && ['true', 'false'].includes(raw.toLowerCase())) {
      out[name] = raw.toLowerCase() === 'true';
    }
  }
  return out;
}

/** Validates coerced parameters; reports the first problem in declaration order, as before. */
export function checkParams(
  where: 'path' | 'query',
  schema: ParamsSchema,
  validate: ValidateFunction,
  values: Record<string, unknown>,
  raw: Record<string, unknown>,
): void {
  if (validate(values)) return;
  const order = Object.keys(schema.properties);
  const position = (e: ErrorObject) => order.indexOf(nameOf(e));
  const [first] = [...(validate.errors ?? [])].sort((a, b) => position(a) - position(b));
  if (!first) return;
  const name = nameOf(first);
  const property = schema.properties[name] ?? {};
  throw where === 'query'
    ? queryError(name, property, first, raw[name])
    : pathError(name, property, raw[name]);
}

function nameOf(error: ErrorObject): string {
  if (error.keyword === 'required')
    return String((error.params as { missingProperty: string }).missingProperty);
  return error.instancePath.split('/')[1] ?? '';
}

function queryError(name: string, property: JsonSchema, error: ErrorObject, raw: unknown): ValidationError {
  if (error.keyword === 'required') {
    return new ValidationError(`Query parameter ${name} is required`, [
      { path: name, message: 'is required' },
    ]);
  }
  if (error.keyword === 'minimum' || error.keyword === 'maximum') {
    const range = `${property.minimum ?? '-∞'}..${property.maximum ?? '∞'}`;
    return new ValidationError(
      `Query parameter '${name}' must be within ${range}, got ${String(error.data)}`,
      [{ path: name, message: `must be within ${range}`, invalidValue: error.data }],
    );
  }
  if (property.type === 'boolean') {
    return new ValidationError(`Query parameter '${name}' must be true or false, got '${quote(raw)}'`, [
      { path: name, message: 'must be a boolean', invalidValue: raw },
    ]);
  }
  if (property.type === 'integer') {
    return new ValidationError(`Query parameter '${name}' must be an integer, got '${quote(raw)}'`, [
      { path: name, message: 'must be an integer', invalidValue: raw },
    ]);
  }
  const message = describe(property, error);
  return new ValidationError(`Query parameter '${name}' ${message}, got '${quote(raw)}'`, [
    { path: name, message, invalidValue: raw },
  ]);
}

/** Path parameters say what they must be through their description ("a positive integer"). */
function pathError(name: string, property: JsonSchema, raw: unknown): ValidationError {
  const message =
    typeof property.description === 'string' ? `must be ${property.description}` : 'is not valid';
  const label = name.charAt(0).toUpperCase() + name.slice(1);
  return new ValidationError(`${label} ${message}, got '${quote(raw)}'`, [
    { path: name, message, invalidValue: raw },
  ]);
}

/**
 * Validates a parsed body against the route's body schema (lib/validation/body-schema.ts words the
 * answer). An absent body is fine unless the contract requires one; a list body must be there.
 */
export function checkBody(contract: BodyContract, validate: ValidateFunction, body: unknown): void {
  if (contract.schema.type !== 'array' && body === undefined) {
    if (contract.required) ensureIsObject(body, contract.title);
    return;
  }
  checkBodyValue(contract, validate, body);
}
