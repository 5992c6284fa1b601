/**
 * The search AST: what the `query` parameter (a SQL-like where clause) and the `freeText`
 * parameter parse to. One AST feeds every backend: the planner and in-process filter
 * (lib/search/evaluate.ts, planner.ts) and the OpenSearch translation (lib/search/opensearch-dsl.ts).
 */

export type ComparisonOp = '=' | '!=' | '>' | '>=' | '<' | '<=';

/** A literal as written: quoted values are always strings; bare ones may read as numbers. */
export interface Literal {
  text: string;
  quoted: boolean;
}

export type QueryExpr =
  | { kind: 'and'; items: QueryExpr[] }
  | { kind: 'or'; items: QueryExpr[] }
  | { kind: 'compare'; field: string; op: ComparisonOp; value: Literal }
  | { kind: 'in'; field: string; negated: boolean; values: Literal[] };

/** One free-text term: `field:"value"`, `field:value`, a bare term or a quoted phrase. */
export interface FreeTextTerm {
  /** Absent for a bare term (matches any text field). */
  field?: string;
  value: string;
}

/** Free text: every term must match (terms are ANDed); `*` or empty matches everything. */
export interface FreeText {
  terms: FreeTextTerm[];
}
