/**
 * The `freeText` parameter: whitespace-separated terms, all of which must match. A term is
 * `field:"value"`, `field:value`, a bare word or a "quoted phrase"; `*` (the default) or blank
 * matches everything. Conductor hands this to Lucene's query_string; this is the subset the UI and
 * the SDKs send. Malformed text (an unterminated quote, `field:` with no value) is a 400 naming
 * the position.
 */

import type { FreeText, FreeTextTerm } from './query-ast.ts';
import { queryError } from './query-parser.ts';

const FIELD = /^[A-Za-z_][A-Za-z0-9_.]*$/;

function readQuoted(input: string, start: number): { value: string; end: number } {
  const quote = input.charAt(start);
  let value = '';
  let i = start + 1;
  while (i < input.length) {
    const ch = input.charAt(i);
    if (ch === '\\' && i + 1 < input.length) {
      value += input.charAt(i + 1);
      i += 2;
    } else if (ch === quote) {
      return { value, end: i + 1 };
    } else {
      value += ch;
      i++;
    }
  }
  throw queryError('unterminated string', start, 'freeText');
}

export function parseFreeText(input: string | undefined): FreeText {
  const terms: FreeTextTerm[] = [];
  const text = input ?? '';
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const { value, end } = readQuoted(text, i);
      terms.push({ value });
      i = end;
      continue;
    }
    const start = i;
    while (i < text.length && !/[\s:"']/.test(text.charAt(i))) i++;
    const word = text.slice(start, i);
    if (text.charAt(i) === ':' && FIELD.test(word)) {
      const valueAt = i + 1;
      const next = text.charAt(valueAt);
      if (next === '"' || next === "'") {
        const { value, end } = readQuoted(text, valueAt);
        terms.push({ field: word, value });
        i = end;
      } else {
        let end = valueAt;
        while (end < text.length && !/\s/.test(text.charAt(end))) end++;
        if (end === valueAt) throw queryError(`expected a value after '${word}:'`, valueAt, 'freeText');
        terms.push({ field: word, value: text.slice(valueAt, end) });
        i = end;
      }
      continue;
    }
    // A word with a ':' that is not a field prefix (a URL, a time) or a stray quote: read to the
    // next whitespace as one bare term.
    while (i < text.length && !/\s/.test(text.charAt(i))) i++;
    const term = text.slice(start, i);
    if (term !== '*') terms.push({ value: term });
  }
  return { terms };
}
