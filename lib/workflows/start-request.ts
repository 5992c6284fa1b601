/**
 * The StartWorkflowRequest body: its JSON Schema is the one shape check of every start (POST
 * /api/workflow through its route contract; execute, test runs, schedules and event handlers through
 * WorkflowStarter.parseRequest), its TypeScript type is derived from the schema, and startRequestOf
 * reads a checked body into a StartRequest.
 *
 * Lenient where Conductor's JSON reader (Jackson) is: the official UI's Run Workflow form sends
 * `{"name":"x","version":"1","correlationId":"","input":{},"idempotencyKey":""}`, so numeric strings
 * are numbers and empty strings of optional fields are absent.
 */
import { type BodyOf, bodySchema } from '../validation/body-schema.ts';
import { IDEMPOTENCY_STRATEGIES, type IdempotencyStrategy } from './idempotency.ts';

export interface StartRequest {
  name: string;
  version?: number;
  input?: Record<string, unknown>;
  correlationId?: string;
  priority?: number;
  taskToDomain?: Record<string, string>;
  workflowDef?: unknown;
  externalInputPayloadStoragePath?: string;
  /** One run per key and workflow name (lib/workflows/idempotency.ts); strategy default FAIL. */
  idempotencyKey?: string;
  idempotencyStrategy?: IdempotencyStrategy;
  /** Internal: set for children and failure workflows. */
  workflowId?: string;
  parentWorkflowId?: string;
  parentWorkflowTaskId?: string;
  event?: string;
}

// Integers as Jackson reads them into an Integer: a number, a numeric string, or ""/null (absent).
// A string of zeros may carry a minus sign ("-0" is 0); any other negative is out of range.
const NON_NEGATIVE_TEXT = '^(\\s*(-0+|\\d+)\\s*)?$';
const PRIORITY_TEXT = '^(\\s*(-0+|0*\\d{1,2})\\s*)?$';

export const START_WORKFLOW_REQUEST = bodySchema(
  'StartWorkflowRequest',
  {
    type: 'object',
    description: 'Conductor StartWorkflowRequest',
    properties: {
      name: { description: 'The workflow name (required unless workflowDef is given)' },
      version: {
        anyOf: [
          { type: 'integer', minimum: 0 },
          { type: 'string', pattern: NON_NEGATIVE_TEXT },
          { type: 'null' },
        ],
        description: 'Non-negative integer; absent or 0 is the latest',
      },
      input: {
        type: ['object', 'null'],
        description: 'A JSON object; null only with externalInputPayloadStoragePath',
      },
      correlationId: { type: ['string', 'null'], description: 'A string' },
      priority: {
        anyOf: [
          { type: 'integer', minimum: 0, maximum: 99 },
          { type: 'string', pattern: PRIORITY_TEXT },
          { type: 'null' },
        ],
        description: 'An integer from 0 to 99',
      },
      taskToDomain: { type: ['object', 'null'], description: 'A map of task name to domain' },
      workflowDef: { description: 'An inline workflow definition to run instead of a registered one' },
      externalInputPayloadStoragePath: {
        type: ['string', 'null'],
        description: 'Where a large input is stored',
      },
      idempotencyKey: { type: ['string', 'null'], description: 'At most one run per key and workflow name' },
      idempotencyStrategy: {
        type: ['string', 'null'],
        pattern: `^(${IDEMPOTENCY_STRATEGIES.join('|')})?$`,
        description: `${IDEMPOTENCY_STRATEGIES.join(', ')} (default FAIL)`,
      },
    },
  },
  {
    messages: {
      version: 'must be a non-negative integer',
      priority: 'priority: must be between 0 and 99',
      taskToDomain: 'must be a map of task name to domain',
      idempotencyStrategy: { pattern: `must be one of ${IDEMPOTENCY_STRATEGIES.join(', ')}` },
    },
    invalidValues: { input: 'omit', taskToDomain: 'omit' },
    check: (body, add) => {
      if (nameOf(body) === undefined) add('name', 'Workflow name cannot be null or empty');
      // Conductor: a null input with no external payload path is a bad request (an absent one is {}).
      const external = body.externalInputPayloadStoragePath;
      if (body.input === null && (typeof external !== 'string' || external === '')) {
        add('input', 'must not be null without externalInputPayloadStoragePath');
      }
    },
  },
);

/** A StartWorkflowRequest body that passed its schema. */
export type StartWorkflowBody = BodyOf<typeof START_WORKFLOW_REQUEST>;

/** The start a checked body asks for. */
export function startRequestOf(body: StartWorkflowBody): StartRequest {
  const version = integerOf(body.version);
  const idempotencyKey = presentString(body.idempotencyKey);
  return {
    name: nameOf(body) as string,
    version: version === 0 ? undefined : version,
    input: body.input ?? {},
    correlationId: presentString(body.correlationId),
    priority: integerOf(body.priority) ?? 0,
    taskToDomain: (body.taskToDomain as Record<string, string> | null | undefined) ?? {},
    workflowDef: body.workflowDef ?? undefined,
    externalInputPayloadStoragePath: presentString(body.externalInputPayloadStoragePath),
    idempotencyKey,
    idempotencyStrategy:
      idempotencyKey === undefined
        ? undefined
        : ((presentString(body.idempotencyStrategy) ?? 'FAIL') as IdempotencyStrategy),
  };
}

/** The optional numbers of a StartWorkflowRequest, which Jackson reads into an Integer. */
const OPTIONAL_NUMBERS = ['version', 'priority'] as const;
/** Optional strings and objects: `""` (strings) and null stand for absent. */
const OPTIONAL_TEXT = [
  'correlationId',
  'idempotencyKey',
  'idempotencyStrategy',
  'externalInputPayloadStoragePath',
];
const OPTIONAL_OBJECTS = ['input', 'taskToDomain', 'workflowDef'];

/**
 * A StartWorkflowRequest kept for later starts (a schedule's), as Conductor's reader would have bound
 * it: an optional number or string sent as `""` or null is left out, a numeric string is its number,
 * and a null object is left out (a schedule's start then gets `{}` as input, as Conductor's scheduler
 * gives it). Anything else stays as sent, for the request's own check to name (`"one"` as a version).
 * The official UI's schedule form sends `"version": ""`, `"priority": ""`, `"correlationId": ""` and
 * `"input": null` for fields left empty.
 */
export function storedStartRequest(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const field of OPTIONAL_NUMBERS) {
    const value = out[field];
    if (value === null || (typeof value === 'string' && value.trim() === '')) delete out[field];
    else if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) out[field] = Number(value) || 0;
  }
  for (const field of OPTIONAL_TEXT) if (out[field] === null || out[field] === '') delete out[field];
  for (const field of OPTIONAL_OBJECTS) if (out[field] === null) delete out[field];
  return out;
}

/** The run's name: the request's, else its inline definition's. */
function nameOf(body: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof body.name === 'string' && body.name.trim() !== '') return body.name.trim();
  const def = body.workflowDef;
  const inline = typeof def === 'object' && def !== null ? (def as { name?: unknown }).name : undefined;
  return typeof inline === 'string' && inline.trim() !== '' ? inline : undefined;
}

/** "" and null are absent; a checked numeric string is its number. */
function integerOf(value: number | string | null | undefined): number | undefined {
  return value === undefined || value === null || value === '' ? undefined : Number(value);
}

/** "" and null are absent (the UI sends empty ids). */
function presentString(value: string | null | undefined): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : value;
}
