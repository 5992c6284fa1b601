/**
 * Reading what a client sent: query parameters (an empty value counts as absent) and JSON bodies
 * (malformed JSON is a 400, never a 500 or 415).
 */
import { ValidationError } from '../model/errors.ts';

/**
 * The body text of a request whose host already holds it as a string (node:http reads it whole
 * before routing): the router uses it instead of reading the body stream again.
 */
const knownText = new WeakMap<Request, string>();

export function withKnownText(request: Request, text: string): Request {
  knownText.set(request, text);
  return request;
}

export function bodyText(request: Request): Promise<string> {
  const text = knownText.get(request);
  return text !== undefined ? Promise.resolve(text) : request.text();
}

export class QueryParams {
  constructor(private readonly params: URLSearchParams) {}

  /** The first non-empty value of a parameter, or undefined (`sort=` is absent). */
  string(name: string): string | undefined {
    for (const value of this.params.getAll(name)) if (value !== '') return value;
    return undefined;
  }

  /** A parameter that must be given: a 400 naming it otherwise. */
  required(name: string): string {
    const value = this.string(name);
    if (value === undefined) {
      throw new ValidationError(`Query parameter ${name} is required`, [
        { path: name, message: 'is required' },
      ]);
    }
    return value;
  }

  /** Every non-empty value of a repeatable parameter; comma-separated values are split too. */
  list(name: string): string[] {
    return this.params
      .getAll(name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const lower = raw.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    throw new ValidationError(`Query parameter '${name}' must be true or false, got '${raw}'`, [
      { path: name, message: 'must be a boolean', invalidValue: raw },
    ]);
  }

  int(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
    return this.optionalInt(name, bounds) ?? fallback;
  }

  optionalInt(name: string, bounds: { min?: number; max?: number } = {}): number | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) {
      throw new ValidationError(`Query parameter '${name}' must be an integer, got '${raw}'`, [
        { path: name, message: 'must be an integer', invalidValue: raw },
      ]);
    }
    if (
      (bounds.min !== undefined && value < bounds.min) ||
      (bounds.max !== undefined && value > bounds.max)
    ) {
      const range = `${bounds.min ?? '-∞'}..${bounds.max ?? '∞'}`;
      throw new ValidationError(`Query parameter '${name}' must be within ${range}, got ${value}`, [
        { path: name, message: `must be within ${range}`, invalidValue: value },
      ]);
    }
    return value;
  }
}

/** Parses a request body as JSON. An empty body is undefined, letting the route decide if it is required. */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ValidationError(`Malformed JSON in request body: ${detail}`);
  }
}
