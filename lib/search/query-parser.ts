/**
 * The `query` grammar (docs/conductor-compat.md §6.1), a tokenizer and a recursive-descent parser:
 *
 *   query      := or EOF
 *   or         := and ( "OR" and )*
 *   and        := primary ( "AND" primary )*
 *   primary    := "(" or ")" | field op value | field ["NOT"] "IN" "(" value ( "," value )* ")"
 *   op         := "=" | "!=" | ">" | ">=" | "<" | "<="
 *   value      := 'single' | "double" (backslash escapes) | bare word
 *
 * AND binds tighter than OR. Keywords are upper case, as in Conductor. Errors are
 * ValidationErrors naming the 1-based character position of the offending token.
 */
import { ValidationError } from '../model/errors.ts';
import type { ComparisonOp, Literal, QueryExpr } from './query-ast.ts';

type TokenKind = 'word' | 'string' | 'op' | 'lparen' | 'rparen' | 'comma' | 'eof';

export interface Token {
  kind: TokenKind;
  text: string;
  /** 0-based offset in the query. */
  pos: number;
}

const OPS = ['>=', '<=', '!=', '=', '>', '<'] as const;
const WORD = /[A-Za-z0-9_.:*+\-@/]/;

/** A query error at a 0-based offset; the message names the 1-based position. */
export function queryError(what: string, pos: number, source = 'query'): ValidationError {
  return new ValidationError(`Invalid ${source} at position ${pos + 1}: ${what}`, [
    { path: source, message: `${what} (position ${pos + 1})` },
  ]);
}

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input.charAt(i);
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: c === '(' ? 'lparen' : c === ')' ? 'rparen' : 'comma', text: c, pos: i });
      i++;
      continue;
    }
    const op = OPS.find((candidate) => input.startsWith(candidate, i));
    if (op) {
      tokens.push({ kind: 'op', text: op, pos: i });
      i += op.length;
      continue;
    }
    if (c === '"' || c === "'") {
      const start = i;
      let text = '';
      i++;
      for (;;) {
        if (i >= input.length) throw queryError('unterminated string', start);
        const ch = input.charAt(i);
        if (ch === '\\' && i + 1 < input.length) {
          text += input.charAt(i + 1);
          i += 2;
        } else if (ch === c) {
          i++;
          break;
        } else {
          text += ch;
          i++;
        }
      }
      tokens.push({ kind: 'string', text, pos: start });
      continue;
    }
    if (WORD.test(c)) {
      const start = i;
      while (i < input.length && WORD.test(input.charAt(i))) i++;
      tokens.push({ kind: 'word', text: input.slice(start, i), pos: start });
      continue;
    }
    throw queryError(`unexpected character '${c}'`, i);
  }
  tokens.push({ kind: 'eof', text: '', pos: input.length });
  return tokens;
}

const FIELD = /^[A-Za-z_][A-Za-z0-9_.]*$/;
/** Nesting limit: a hostile query cannot exhaust the stack (recursive descent). */
const MAX_DEPTH = 64;
const KEYWORDS = new Set(['AND', 'OR', 'IN', 'NOT']);

class Parser {
  private at = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.at] ?? { kind: 'eof', text: '', pos: 0 };
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.at++;
    return token;
  }

  private isKeyword(word: string): boolean {
    const token = this.peek();
    return token.kind === 'word' && token.text === word;
  }

  private describe(token: Token): string {
    return token.kind === 'eof' ? 'end of query' : `'${token.text}'`;
  }

  parseQuery(): QueryExpr {
    const expr = this.parseOr();
    const token = this.peek();
    if (token.kind !== 'eof')
      throw queryError(`expected AND, OR or end of query, got ${this.describe(token)}`, token.pos);
    return expr;
  }

  private parseOr(): QueryExpr {
    const items = [this.parseAnd()];
    while (this.isKeyword('OR')) {
      this.next();
      items.push(this.parseAnd());
    }
    return items.length === 1 && items[0] ? items[0] : { kind: 'or', items };
  }

  private parseAnd(): QueryExpr {
    const items = [this.parsePrimary()];
    while (this.isKeyword('AND')) {
      this.next();
      items.push(this.parsePrimary());
    }
    return items.length === 1 && items[0] ? items[0] : { kind: 'and', items };
  }

  private parsePrimary(): QueryExpr {
    const token = this.next();
    if (token.kind === 'lparen') {
      if (++this.depth > MAX_DEPTH)
        throw queryError(`parentheses nested deeper than ${MAX_DEPTH}`, token.pos);
      const inner = this.parseOr();
      this.depth--;
      const close = this.next();
      if (close.kind !== 'rparen') throw queryError(`expected ')', got ${this.describe(close)}`, close.pos);
      return inner;
    }
    if (token.kind !== 'word' || !FIELD.test(token.text) || KEYWORDS.has(token.text)) {
      throw queryError(`expected a field name, got ${this.describe(token)}`, token.pos);
    }
    const field = token.text;
    const after = this.next();
    if (after.kind === 'op')
      return { kind: 'compare', field, op: after.text as ComparisonOp, value: this.parseValue() };
    if (after.kind === 'word' && (after.text === 'IN' || after.text === 'NOT')) {
      const negated = after.text === 'NOT';
      if (negated) {
        const inWord = this.next();
        if (inWord.kind !== 'word' || inWord.text !== 'IN') {
          throw queryError(`expected IN after NOT, got ${this.describe(inWord)}`, inWord.pos);
        }
      }
      return { kind: 'in', field, negated, values: this.parseList() };
    }
    throw queryError(`expected an operator after '${field}', got ${this.describe(after)}`, after.pos);
  }

  private parseList(): Literal[] {
    const open = this.next();
    if (open.kind !== 'lparen') throw queryError(`expected '(', got ${this.describe(open)}`, open.pos);
    const values = [this.parseValue()];
    for (;;) {
      const token = this.next();
      if (token.kind === 'rparen') return values;
      if (token.kind !== 'comma')
        throw queryError(`expected ',' or ')', got ${this.describe(token)}`, token.pos);
      values.push(this.parseValue());
    }
  }

  private parseValue(): Literal {
    const token = this.next();
    if (token.kind === 'string') return { text: token.text, quoted: true };
    if (token.kind === 'word' && !KEYWORDS.has(token.text)) return { text: token.text, quoted: false };
    throw queryError(`expected a value, got ${this.describe(token)}`, token.pos);
  }
}

/** Parses a where clause; blank means "no condition" (undefined). */
export function parseQuery(input: string | undefined): QueryExpr | undefined {
  if (input === undefined || input.trim() === '') return undefined;
  return new Parser(tokenize(input)).parseQuery();
}
