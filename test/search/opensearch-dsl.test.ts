/** The AST to OpenSearch query DSL translation. */
import { describe, expect, it } from 'vitest';
import { WORKFLOW_FIELDS } from '../../lib/search/evaluate.ts';
import { parseFreeText } from '../../lib/search/free-text.ts';
import { queryToDsl, searchBody } from '../../lib/search/opensearch-dsl.ts';
import { parseQuery } from '../../lib/search/query-parser.ts';

const dsl = (query: string) => {
  const expr = parseQuery(query);
  if (!expr) throw new Error('empty');
  return queryToDsl(expr, WORKFLOW_FIELDS);
};

describe('AST to OpenSearch DSL', () => {
  it('translates the SDK IN form to terms filters', () => {
    expect(dsl('workflowType IN (a,b) AND status IN (COMPLETED)')).toEqual({
      bool: { filter: [{ terms: { workflowType: ['a', 'b'] } }, { terms: { status: ['COMPLETED'] } }] },
    });
  });

  it('translates =, !=, ranges (numbers for times, ISO accepted) and NOT IN', () => {
    expect(dsl("workflowType='x y'")).toEqual({ term: { workflowType: 'x y' } });
    expect(dsl('status!=RUNNING')).toEqual({ bool: { must_not: [{ term: { status: 'RUNNING' } }] } });
    expect(dsl('startTime>=1700000000000')).toEqual({ range: { startTime: { gte: 1700000000000 } } });
    expect(dsl('startTime<"2024-01-15T10:30:00.000Z"')).toEqual({
      range: { startTime: { lt: 1705314600000 } },
    });
    expect(dsl('version>1')).toEqual({ range: { version: { gt: 1 } } });
    expect(dsl('status NOT IN (A,B)')).toEqual({ bool: { must_not: [{ terms: { status: ['A', 'B'] } }] } });
  });

  it('translates OR and parentheses', () => {
    expect(dsl('(status=A OR status=B) AND workflowType=w')).toEqual({
      bool: {
        filter: [
          {
            bool: { should: [{ term: { status: 'A' } }, { term: { status: 'B' } }], minimum_should_match: 1 },
          },
          { term: { workflowType: 'w' } },
        ],
      },
    });
  });

  it("builds the UI's search body: free text, page, sort, exact totals", () => {
    const body = searchBody(
      parseQuery('startTime>1'),
      parseFreeText('order-1 workflowType:"my flow"'),
      [{ field: 'startTime', descending: true }],
      { start: 15, size: 15 },
      WORKFLOW_FIELDS,
    );
    expect(body).toEqual({
      from: 15,
      size: 15,
      track_total_hits: true,
      query: {
        bool: {
          filter: [
            { range: { startTime: { gt: 1 } } },
            { query_string: { query: '*order\\-1*', default_operator: 'AND' } },
            { query_string: { query: 'workflowType:"my flow"' } },
          ],
        },
      },
      sort: [{ startTime: { order: 'desc' } }],
    });
    expect(
      searchBody(undefined, parseFreeText('*'), [], { start: 0, size: 1 }, WORKFLOW_FIELDS).query,
    ).toEqual({
      match_all: {},
    });
  });
});
