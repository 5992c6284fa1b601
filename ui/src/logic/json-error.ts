/**
 * Where JSON text first goes wrong, as an offset and a reason. JSON.parse says whether text is
 * valid, but only some engines say where (V8 in Chrome prints a snippet, not a position), so this
 * small scanner walks the grammar (RFC 8259) to find the first offending character.
 */
export interface JsonError {
  offset: number;
  reason: string;
}

class Failure extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export function findJsonError(text: string): JsonError | undefined {
  let at = 0;
  const fail = (reason: string): never => {
    throw new Failure(at, reason);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at++;
  };
  const describe = () =>
    at >= text.length ? 'the text ends too early' : `unexpected ${JSON.stringify(text[at])}`;
  const literal = (word: string) => {
    if (text.startsWith(word, at)) at += word.length;
    else fail(describe());
  };
  const string = () => {
    at++;
    while (at < text.length) {
      const c = text[at] as string;
      if (c === '"') {
        at++;
        return;
      }
      if (c === '\\') {
        const next = text[at + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) fail('invalid \\u escape');
          at += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) at += 2;
        else fail('invalid escape');
      } else if (c < ' ') fail('control character in a string');
      else at++;
    }
    fail('unterminated string');
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!match || match[0] === '' || match[0] === '-') fail(describe());
    at += (match as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    space();
    const c = text[at];
    if (c === '{') object();
    else if (c === '[') array();
    else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail(at >= text.length ? 'the text ends too early' : `expected a value, found ${JSON.stringify(c)}`);
  };
  const object = () => {
    at++;
    space();
    if (text[at] === '}') {
      at++;
      return;
    }
    for (;;) {
      space();
      if (text[at] !== '"') fail(`expected a property name, ${describe()}`);
      string();
      space();
      if (text[at] !== ':') fail(`expected ':', ${describe()}`);
      at++;
      value();
      space();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === '}') {
        at++;
        return;
      }
      fail(`expected ',' or '}', ${describe()}`);
    }
  };
  const array = () => {
    at++;
    space();
    if (text[at] === ']') {
      at++;
      return;
    }
    for (;;) {
      value();
      space();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === ']') {
        at++;
        return;
      }
      fail(`expected ',' or ']', ${describe()}`);
    }
  };
  try {
    value();
    space();
    if (at < text.length) fail(`unexpected text after the JSON value: ${JSON.stringify(text[at])}`);
    return undefined;
  } catch (error) {
    if (error instanceof Failure) return { offset: error.offset, reason: error.reason };
    throw error;
  }
}
