/**
 * The search AST translated to the OpenSearch query DSL: the same parsed query and free text the
 * DynamoDB planner reads, for a deployment whose search answers from an OpenSearch index of runs
 * (or of tasks). Keyword fields take `term`/`terms`, times and numbers `range` (epoch ms), free
 * text `query_string` on the field or on every field. Sort keys become the DSL's sort list.
 * The adapter that sends it is lib/search/opensearch/opensearch-index.ts; the documents it
 * searches are lib/search/index-documents.ts's.
 */
import { type FieldType, numberOf } from './evaluate.ts';
import type { SortKey } from './planner.ts';
import type { FreeText, QueryExpr } from './query-ast.ts';

export type Dsl = Record<string, unknown>;

const RANGE = { '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte' } as const;

function literalOf(
  field: string,
  fields: Readonly<Record<string, FieldType>>,
  text: { text: string; quoted: boolean },
) {
  const type = fields[field] ?? 'keyword';
  return type === 'keyword' ? text.text : numberOf(field, type, text);
}

export function queryToDsl(expr: QueryExpr, fields: Readonly<Record<string, FieldType>>): Dsl {
  switch (expr.kind) {
    case 'and':
      return { bool: { filter: expr.items.map((item) => queryToDsl(item, fields)) } };
    case 'or':
      return {
        bool: { should: expr.items.map((item) => queryToDsl(item, fields)), minimum_should_match: 1 },
      };
    case 'in': {
      const terms = { terms: { [expr.field]: expr.values.map((v) => literalOf(expr.field, fields, v)) } };
      return expr.negated ? { bool: { must_not: [terms] } } : terms;
    }
    case 'compare': {
      const value = literalOf(expr.field, fields, expr.value);
      if (expr.op === '=') return { term: { [expr.field]: value } };
      if (expr.op === '!=') return { bool: { must_not: [{ term: { [expr.field]: value } }] } };
      return { range: { [expr.field]: { [RANGE[expr.op]]: value } } };
    }
  }
}

/** Lucene query_string escaping of a literal term. */
const luceneEscape = (text: string) => text.replace(/[+\-=&|><!(){}[\]^"~*?:\\/]/g, '\\$&');

export function freeTextToDsl(free: FreeText): Dsl[] {
  return free.terms.map((term) =>
    term.field === undefined
      ? { query_string: { query: `*${luceneEscape(term.value)}*`, default_operator: 'AND' } }
      : { query_string: { query: `${term.field}:"${term.value.replace(/["\\]/g, '\\$&')}"` } },
  );
}

/** The body of a `_search` request: filter, page, sort, and an exact hit count. */
export function searchBody(
  expr: QueryExpr | undefined,
  free: FreeText,
  sort: readonly SortKey[],
  page: { start: number; size: number },
  fields: Readonly<Record<string, FieldType>>,
): Dsl {
  const filter = [...(expr ? [queryToDsl(expr, fields)] : []), ...freeTextToDsl(free)];
  return {
    from: page.start,
    size: page.size,
    track_total_hits: true,
    query: filter.length === 0 ? { match_all: {} } : { bool: { filter } },
    sort: sort.map((key) => ({ [key.field]: { order: key.descending ? 'desc' : 'asc' } })),
  };
}
