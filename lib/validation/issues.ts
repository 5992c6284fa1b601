/**
 * Collects validation problems with their JSON paths, then throws one ValidationError carrying all
 * of them, so a client sees everything wrong with a definition at once.
 */
import { type FieldError, ValidationError } from '../model/errors.ts';

export class Issues {
  readonly list: FieldError[] = [];

  add(path: string, message: string, invalidValue?: unknown): void {
    const entry: FieldError = { path, message };
    if (invalidValue === null || ['string', 'number', 'boolean'].includes(typeof invalidValue)) {
      entry.invalidValue = invalidValue;
    }
    this.list.push(entry);
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  throwIfAny(message: string): void {
    if (this.list.length === 0) return;
    const detail = this.list.map((i) => `${i.path}: ${i.message}`).join('; ');
    throw new ValidationError(`${message}: ${detail}`, this.list);
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks an optional field's JSON type; returns false (and records why) when it is present but wrong. */
export function checkType(
  issues: Issues,
  holder: Record<string, unknown>,
  field: string,
  type: 'string' | 'integer' | 'boolean' | 'object' | 'array' | 'number',
  path: string,
  bounds: { min?: number; max?: number } = {},
): boolean {
  const value = holder[field];
  if (value === undefined || value === null) return true;
  const ok =
    type === 'integer'
      ? typeof value === 'number' && Number.isInteger(value)
      : type === 'object'
        ? isObject(value)
        : type === 'array'
          ? Array.isArray(value)
          : typeof value === type;
  if (!ok) {
    issues.add(
      `${path}${field}`,
      `must be ${type === 'integer' || type === 'array' || type === 'object' ? 'an' : 'a'} ${type}`,
      value,
    );
    return false;
  }
  if (typeof value === 'number') {
    if (bounds.min !== undefined && value < bounds.min) {
      issues.add(`${path}${field}`, `must be greater than or equal to ${bounds.min}`, value);
      return false;
    }
    if (bounds.max !== undefined && value > bounds.max) {
      issues.add(`${path}${field}`, `must be less than or equal to ${bounds.max}`, value);
      return false;
    }
  }
  return true;
}

export function isBlank(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '';
}
