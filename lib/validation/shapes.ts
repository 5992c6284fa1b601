/**
 * Shape checks on parsed request bodies, shared by the route contracts and by the services that
 * accept a body from any host (a TaskResult, a StartWorkflowRequest). No HTTP here: the answers are
 * ValidationErrors that the one status map turns into 400s.
 */
import { ValidationError } from '../model/errors.ts';

export function ensureIsObject(body: unknown, what: string): Record<string, unknown> {
  if (body === undefined || body === null) throw new ValidationError(`Request body is required: ${what}`);
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError(`Request body must be a JSON object: ${what}`, [
      { path: 'body', message: 'must be a JSON object' },
    ]);
  }
  return body as Record<string, unknown>;
}

export function ensureIsArray(body: unknown, what: string): unknown[] {
  if (!Array.isArray(body)) {
    throw new ValidationError(`Request body must be a JSON array: ${what}`, [
      { path: 'body', message: 'must be a JSON array' },
    ]);
  }
  return body;
}

/** An optional object body: absent is {}. */
export function objectOrEmpty(body: unknown, what: string): Record<string, unknown> {
  return body === undefined ? {} : ensureIsObject(body, what);
}
