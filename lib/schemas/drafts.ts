/**
 * JSON Schema compilation with Ajv and ajv-formats, the draft chosen by the schema's `$schema`
 * line: draft-07, 2019-09 or 2020-12, one Ajv instance per draft. A schema without `$schema`
 * cannot be matched to a draft and validates nothing (docs/api.md "Schema registry" rule 5); a
 * `$schema` naming another draft is refused when the schema is registered.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FieldError } from '../model/errors.ts';

export type Draft = 'draft-07' | '2019-09' | '2020-12';
export const DRAFTS: readonly Draft[] = ['draft-07', '2019-09', '2020-12'];

// User schemas are not ours to lint: strict mode refuses valid ones (Ajv's strict mode refuses keywords it
// does not know).
const OPTIONS = { strict: false, allErrors: true, logger: false } as const;
const instances = new Map<Draft, Ajv>();

function instanceFor(draft: Draft): Ajv {
  let ajv = instances.get(draft);
  if (!ajv) {
    ajv =
      draft === '2020-12'
        ? new Ajv2020(OPTIONS)
        : draft === '2019-09'
          ? new Ajv2019(OPTIONS)
          : new Ajv(OPTIONS);
    addFormats(ajv);
    instances.set(draft, ajv);
  }
  return ajv;
}

/** The draft a `$schema` line names; undefined without one, 'unsupported' for any other. */
export function draftOf(data: Record<string, unknown> | undefined): Draft | 'unsupported' | undefined {
  const line = data?.$schema;
  if (line === undefined) return undefined;
  if (typeof line !== 'string') return 'unsupported';
  return DRAFTS.find((draft) => line.includes(draft)) ?? 'unsupported';
}

/** A compiled schema: the violations of a value, empty when it conforms. */
export type Validator = (value: unknown) => FieldError[];

/**
 * Compiles a JSON schema for its draft; undefined when it names none (it validates nothing).
 * Throws an Error with Ajv's message when the schema itself is not valid for its draft.
 */
export function compile(data: Record<string, unknown> | undefined): Validator | undefined {
  const draft = draftOf(data);
  if (draft === undefined || data === undefined) return undefined;
  if (draft === 'unsupported') {
    throw new Error(`$schema must name draft-07, 2019-09 or 2020-12, got ${JSON.stringify(data.$schema)}`);
  }
  const ajv = instanceFor(draft);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(data);
  } finally {
    // Compiled functions live on without the instance's registry entry; keeping it would make a
    // second schema with the same $id (another version of it) a clash.
    ajv.removeSchema(data);
  }
  return (value) => (validate(value) ? [] : violationsOf(validate.errors ?? []));
}

/** Ajv's errors as violations, each at the JSON pointer of the value concerned. */
function violationsOf(errors: ErrorObject[]): FieldError[] {
  return errors.map((error) => {
    const missing =
      error.keyword === 'required'
        ? (error.params as { missingProperty?: string }).missingProperty
        : undefined;
    const path =
      missing === undefined ? error.instancePath : `${error.instancePath}/${escapePointer(missing)}`;
    return { path, message: missing === undefined ? (error.message ?? 'is not valid') : 'is required' };
  });
}

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** One line naming each violation: `/age must be >= 0; /email is required`. */
export function describeViolations(violations: readonly FieldError[]): string {
  return violations.map((v) => `${v.path === '' ? '(root)' : v.path} ${v.message}`).join('; ');
}
