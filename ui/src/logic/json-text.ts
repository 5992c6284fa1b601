/**
 * JSON typed by a person: parsed, or the place it goes wrong as line and column (1-based) with
 * the reason (logic/json-error.ts finds it; engines word JSON.parse errors differently).
 */
import { findJsonError } from './json-error.ts';

export type ParsedJson =
  | { ok: true; value: unknown }
  | { ok: false; message: string; line: number; column: number; offset: number };

export function parseJsonText(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const found = findJsonError(text) ?? {
      offset: text.length,
      reason: error instanceof Error ? error.message : String(error),
    };
    const { line, column } = lineColumnOf(text, found.offset);
    return {
      ok: false,
      message: `${found.reason} (line ${line}, column ${column})`,
      line,
      column,
      offset: found.offset,
    };
  }
}

/** A JSON object, or why the text is not one. */
export function parseJsonObject(text: string): ParsedJson {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'The JSON must be an object ({ ... })', line: 1, column: 1, offset: 0 };
  }
  return parsed;
}

export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** Pretty JSON as the editors show it. */
export const prettyJson = (value: unknown): string => JSON.stringify(value, null, 2);
