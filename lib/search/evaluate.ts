/**
 * Checks a parsed query against the searchable fields of a document kind and evaluates it (and
 * free text) against one document in process. The memory store and the DynamoDB adapter filter
 * with it after the planner's index read; OpenSearch gets the same AST translated instead.
 *
 * Fields: an unknown field is a 400 naming it (docs/conductor-compat.md §6.2 lets us choose; silently
 * ignoring a misspelt field would return too much). Time fields compare as epoch ms and also take ISO 8601.
 */
import { ValidationError } from '../model/errors.ts';
import type { FreeText, Literal, QueryExpr } from './query-ast.ts';

export type FieldType = 'keyword' | 'number' | 'time';

/** A searchable document: the values of its fields (times as epoch ms). */
export type SearchDoc = Readonly<Record<string, string | number | undefined>>;

export const WORKFLOW_FIELDS: Readonly<Record<string, FieldType>> = {
  workflowId: 'keyword',
  workflowType: 'keyword',
  version: 'number',
  correlationId: 'keyword',
  status: 'keyword',
  reasonForIncompletion: 'keyword',
  event: 'keyword',
  parentWorkflowId: 'keyword',
  startTime: 'time',
  updateTime: 'time',
  endTime: 'time',
  executionTime: 'number',
  priority: 'number',
};

export const TASK_FIELDS: Readonly<Record<string, FieldType>> = {
  taskId: 'keyword',
  taskType: 'keyword',
  taskDefName: 'keyword',
  referenceTaskName: 'keyword',
  workflowId: 'keyword',
  workflowType: 'keyword',
  workflowName: 'keyword',
  correlationId: 'keyword',
  status: 'keyword',
  reasonForIncompletion: 'keyword',
  domain: 'keyword',
  scheduledTime: 'time',
  startTime: 'time',
  updateTime: 'time',
  endTime: 'time',
  executionTime: 'number',
  queueWaitTime: 'number',
};

/** A literal as a number for a numeric or time field, or a 400. */
export function numberOf(field: string, type: FieldType, value: Literal): number {
  const text = value.text.trim();
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (type === 'time') {
    const parsed = Date.parse(text);
    if (!Number.isNaN(parsed) && /^\d{4}-\d{2}-\d{2}/.test(text)) return parsed;
    throw new ValidationError(
      `Invalid query: ${field} takes epoch milliseconds or an ISO 8601 time, got '${value.text}'`,
    );
  }
  throw new ValidationError(`Invalid query: ${field} takes a number, got '${value.text}'`);
}

/** Throws a 400 for a field the kind does not have, or a value its type cannot take. */
export function checkQuery(expr: QueryExpr | undefined, fields: Readonly<Record<string, FieldType>>): void {
  if (!expr) return;
  if (expr.kind === 'and' || expr.kind === 'or') {
    for (const item of expr.items) checkQuery(item, fields);
    return;
  }
  const type = fields[expr.field];
  if (!type) {
    throw new ValidationError(
      `Invalid query: unknown field '${expr.field}'; searchable fields are ${Object.keys(fields).join(', ')}`,
    );
  }
  const values = expr.kind === 'in' ? expr.values : [expr.value];
  if (type !== 'keyword') for (const value of values) numberOf(expr.field, type, value);
}

function compare(actual: string | number | undefined, op: string, expected: string | number): boolean {
  if (op === '!=') return actual !== expected;
  if (op === '=') return actual === expected;
  if (actual === undefined) return false;
  if (op === '>') return actual > expected;
  if (op === '>=') return actual >= expected;
  if (op === '<') return actual < expected;
  return actual <= expected;
}

function expectedOf(field: string, type: FieldType | undefined, value: Literal): string | number {
  return type === 'number' || type === 'time' ? numberOf(field, type, value) : value.text;
}

export function matchesQuery(
  expr: QueryExpr | undefined,
  doc: SearchDoc,
  fields: Readonly<Record<string, FieldType>>,
): boolean {
  if (!expr) return true;
  switch (expr.kind) {
    case 'and':
      return expr.items.every((item) => matchesQuery(item, doc, fields));
    case 'or':
      return expr.items.some((item) => matchesQuery(item, doc, fields));
    case 'compare':
      return compare(doc[expr.field], expr.op, expectedOf(expr.field, fields[expr.field], expr.value));
    case 'in': {
      const actual = doc[expr.field];
      const hit = expr.values.some((value) => actual === expectedOf(expr.field, fields[expr.field], value));
      return expr.negated ? !hit : hit;
    }
  }
}

/** Case-insensitive substring match of every term; a bare term looks at every field and `text`. */
export function matchesFreeText(free: FreeText, doc: SearchDoc, text: () => string): boolean {
  return free.terms.every((term) => {
    const needle = term.value.toLowerCase().replaceAll('*', '');
    if (needle === '') return true;
    if (term.field !== undefined) {
      const value = doc[term.field] ?? (term.field === 'input' || term.field === 'output' ? undefined : '');
      const haystack = value === undefined ? text() : String(value);
      return haystack.toLowerCase().includes(needle);
    }
    return text().toLowerCase().includes(needle);
  });
}
