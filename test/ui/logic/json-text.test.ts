// Locating invalid JSON for the editors: the line and column of the first offending character.
import { describe, expect, it } from 'vitest';
import { findJsonError } from '../../../ui/src/logic/json-error.ts';
import { parseJsonObject, parseJsonText } from '../../../ui/src/logic/json-text.ts';

describe('parseJsonText', () => {
  it('parses valid JSON', () => {
    expect(parseJsonText('{"a": [1, 2.5e3, true, null, "x\\u00e9"]}')).toEqual({
      ok: true,
      value: { a: [1, 2500, true, null, 'xé'] },
    });
  });

  it.each([
    ['{\n  "a": [\n}', 3, 1, 'expected a value, found "}"'],
    ['{"a": 1,}', 1, 9, 'expected a property name'],
    ['{"a" 1}', 1, 6, "expected ':'"],
    ['[1 2]', 1, 4, "expected ',' or ']'"],
    ['{"a": tru}', 1, 7, 'unexpected'],
    ['{"a": "x', 1, 9, 'unterminated string'],
    ['{} x', 1, 4, 'unexpected text after the JSON value'],
    ['', 1, 1, 'the text ends too early'],
    ['{"a": 01}', 1, 8, "expected ',' or '}'"],
  ])('places the error in %j at line %i, column %i', (text, line, column, reason) => {
    const parsed = parseJsonText(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect([parsed.line, parsed.column]).toEqual([line, column]);
    expect(parsed.message).toContain(reason);
    expect(parsed.message).toContain(`(line ${line}, column ${column})`);
  });

  it('agrees with JSON.parse on what is valid', () => {
    for (const text of [
      '1',
      '"s"',
      '[]',
      '{}',
      ' {"a":{"b":[{}]}} ',
      '-0.5E-2',
      '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
    ]) {
      expect(findJsonError(text)).toBeUndefined();
      expect(() => JSON.parse(text)).not.toThrow();
    }
  });

  it('wants an object where a schema or definition is edited', () => {
    expect(parseJsonObject('[1]')).toMatchObject({
      ok: false,
      message: 'The JSON must be an object ({ ... })',
    });
    expect(parseJsonObject('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
  });
});
