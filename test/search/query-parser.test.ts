/** The query grammar and free text: valid forms, their ASTs, and errors naming the position. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.ts';
import { checkQuery, matchesFreeText, matchesQuery, WORKFLOW_FIELDS } from '../../lib/search/evaluate.ts';
import { parseFreeText } from '../../lib/search/free-text.ts';
import { parseQuery } from '../../lib/search/query-parser.ts';

const lit = (text: string, quoted = false) => ({ text, quoted });

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('query parser', () => {
  it('blank is no condition', () => {
    expect(parseQuery(undefined)).toBeUndefined();
    expect(parseQuery('   ')).toBeUndefined();
  });

  it('parses every comparison operator', () => {
    for (const op of ['=', '!=', '>', '>=', '<', '<=']) {
      expect(parseQuery(`startTime${op}1700000000000`)).toEqual({
        kind: 'compare',
        field: 'startTime',
        op,
        value: lit('1700000000000'),
      });
    }
  });

  it('parses the SDK forms: IN lists and quoted equality', () => {
    expect(parseQuery('workflowType IN (a,b) AND status IN (COMPLETED)')).toEqual({
      kind: 'and',
      items: [
        { kind: 'in', field: 'workflowType', negated: false, values: [lit('a'), lit('b')] },
        { kind: 'in', field: 'status', negated: false, values: [lit('COMPLETED')] },
      ],
    });
    expect(parseQuery(`workflowType = "my flow" AND correlationId='it\\'s'`)).toEqual({
      kind: 'and',
      items: [
        { kind: 'compare', field: 'workflowType', op: '=', value: lit('my flow', true) },
        { kind: 'compare', field: 'correlationId', op: '=', value: lit("it's", true) },
      ],
    });
  });

  it('parses NOT IN, OR and parentheses with AND binding tighter', () => {
    expect(parseQuery('a=1 OR b=2 AND c NOT IN (x, "y z")')).toEqual({
      kind: 'or',
      items: [
        { kind: 'compare', field: 'a', op: '=', value: lit('1') },
        {
          kind: 'and',
          items: [
            { kind: 'compare', field: 'b', op: '=', value: lit('2') },
            { kind: 'in', field: 'c', negated: true, values: [lit('x'), lit('y z', true)] },
          ],
        },
      ],
    });
    expect(parseQuery('(a=1 OR b=2) AND c=3')).toMatchObject({
      kind: 'and',
      items: [{ kind: 'or' }, { kind: 'compare' }],
    });
  });

  it.each([
    ['status=', 8, 'expected a value, got end of query'],
    ['status IN (A,', 14, 'expected a value'],
    ['status IN A', 11, "expected '('"],
    ['(status=A', 10, "expected ')'"],
    ['status=A AND', 13, 'expected a field name'],
    ['status=A status=B', 10, 'expected AND, OR or end of query'],
    ['status ~ A', 8, "unexpected character '~'"],
    ["status='open", 8, 'unterminated string'],
    ['=A', 1, 'expected a field name'],
    ['status NOT A', 12, 'expected IN after NOT'],
    ['status A', 8, "expected an operator after 'status'"],
    [`${'('.repeat(65)}a=1${')'.repeat(65)}`, 65, 'nested deeper than 64'],
  ])('%s is a 400 at position %i', (query, position, what) => {
    const message = errorOf(() => parseQuery(query));
    expect(message).toContain(`position ${position}`);
    expect(message).toContain(what);
  });
});

describe('field checks and evaluation', () => {
  it('rejects unknown fields and non-numeric times', () => {
    expect(errorOf(() => checkQuery(parseQuery('colour=red'), WORKFLOW_FIELDS))).toContain(
      "unknown field 'colour'",
    );
    expect(errorOf(() => checkQuery(parseQuery('startTime>soon'), WORKFLOW_FIELDS))).toContain('startTime');
    expect(() => checkQuery(parseQuery('startTime>"2024-01-15T10:30:00Z"'), WORKFLOW_FIELDS)).not.toThrow();
  });

  it('evaluates against a document', () => {
    const doc = { workflowType: 'a', status: 'COMPLETED', startTime: 1000, version: 2 };
    const q = (text: string) => matchesQuery(parseQuery(text), doc, WORKFLOW_FIELDS);
    expect(q('workflowType IN (a,b) AND status IN (COMPLETED)')).toBe(true);
    expect(q('workflowType NOT IN (a)')).toBe(false);
    expect(q('startTime>=1000 AND startTime<1001')).toBe(true);
    expect(q('startTime>1000 OR version=2')).toBe(true);
    expect(q('(startTime>1000 OR version=3) AND status=COMPLETED')).toBe(false);
    expect(q('correlationId!=x')).toBe(true);
    expect(q('startTime<"1970-01-01T00:00:01.001Z"')).toBe(true);
  });
});

describe('free text', () => {
  it('parses *, bare terms, phrases and field:value', () => {
    expect(parseFreeText('*')).toEqual({ terms: [] });
    expect(parseFreeText(undefined)).toEqual({ terms: [] });
    expect(parseFreeText('order-123 "two words" workflowType:"my flow" status:FAILED')).toEqual({
      terms: [
        { value: 'order-123' },
        { value: 'two words' },
        { field: 'workflowType', value: 'my flow' },
        { field: 'status', value: 'FAILED' },
      ],
    });
  });

  it('errors name the position', () => {
    expect(errorOf(() => parseFreeText('a "open'))).toContain('position 3');
    expect(errorOf(() => parseFreeText('status: x'))).toContain('position 8');
  });

  it('matches case-insensitively, all terms', () => {
    const doc = { workflowType: 'Billing', status: 'FAILED' };
    const text = () => '{"orderId":"ORDER-123"} Billing';
    expect(matchesFreeText(parseFreeText('order-123'), doc, text)).toBe(true);
    expect(matchesFreeText(parseFreeText('workflowType:billing status:FAILED'), doc, text)).toBe(true);
    expect(matchesFreeText(parseFreeText('order-123 nope'), doc, text)).toBe(false);
  });
});
