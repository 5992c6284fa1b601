/**
 * Reads a JSON object typed into a form: the value, or a problem in words naming the line and
 * column where the text stops being JSON (or saying it is not an object).
 */
export type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string };

/** Line and column (1-based) of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

export function parseObject(text: string): Parsed {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { ok: false, problem: 'The input must be a JSON object ({...}).' };
    }
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    if (position) {
      const { line, column } = lineAndColumn(text, Number(position[1]));
      return { ok: false, problem: `Not valid JSON at line ${line}, column ${column}: ${message}` };
    }
    return { ok: false, problem: `Not valid JSON: ${message}` };
  }
}
