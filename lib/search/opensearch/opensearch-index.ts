/**
 * The search index on OpenSearch (a Serverless collection or a domain; README "Search"): two
 * indexes, `<prefix>-workflows` (document id = workflow id) and `<prefix>-tasks` (id = task id),
 * whose documents are index-documents.ts's. Searches send the query AST translated to the DSL
 * (opensearch-dsl.ts) with a tie-break on the id so pages are stable, leave out runs past their
 * `expiresAt`, and read back ids only. Writes go through `_bulk` in stream order; the indexes are
 * created with explicit mappings on first write (keywords stay exact, times are epoch ms dates).
 */
import { ValidationError } from '../../model/errors.ts';
import { type FieldType, TASK_FIELDS, WORKFLOW_FIELDS } from '../evaluate.ts';
import { type Dsl, searchBody } from '../opensearch-dsl.ts';
import type {
  IndexOp,
  IndexPage,
  SearchIndex,
  SearchIndexQuery,
  SearchIndexWriter,
  TaskRef,
} from '../ports.ts';
import type { OpenSearchHttp, OpenSearchResponse } from './signed-http.ts';

/** OpenSearch's default index.max_result_window: `from + size` beyond it is refused. */
export const MAX_RESULT_WINDOW = 10_000;

type Kind = IndexOp['kind'];

const MAPPED: Record<FieldType, Dsl> = {
  keyword: { type: 'keyword' },
  number: { type: 'long' },
  time: { type: 'date', format: 'epoch_millis' },
};

/** The mapping of one index: every search field, the free-text blob and the expiry time. */
export function mappingOf(fields: Readonly<Record<string, FieldType>>): Dsl {
  const properties = Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, MAPPED[type]]));
  return {
    mappings: {
      dynamic: false,
      properties: { ...properties, text: { type: 'text' }, expiresAt: MAPPED.time },
    },
  };
}

interface Hits {
  hits?: { total?: { value?: number }; hits?: { _source?: Record<string, unknown> }[] };
}

interface BulkAnswer {
  errors?: boolean;
  items?: Record<string, { status?: number; error?: unknown }>[];
}

function failed(response: OpenSearchResponse, what: string): Error {
  return new Error(
    `OpenSearch ${what} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`,
  );
}

export class OpenSearchIndex implements SearchIndex, SearchIndexWriter {
  readonly maxWindow = MAX_RESULT_WINDOW;
  private created?: Promise<void>;

  constructor(
    private readonly http: OpenSearchHttp,
    private readonly prefix: string,
  ) {}

  indexOf(kind: Kind): string {
    return `${this.prefix}-${kind === 'workflow' ? 'workflows' : 'tasks'}`;
  }

  async workflows(query: SearchIndexQuery): Promise<IndexPage<string>> {
    // Expired runs stay until DynamoDB's TTL deletes them (up to 48 h), and are hidden meanwhile.
    const live = { bool: { must_not: [{ range: { expiresAt: { lte: query.now } } }] } };
    const found = await this.search('workflow', query, WORKFLOW_FIELDS, ['workflowId'], live);
    return { totalHits: found.totalHits, ids: found.sources.map((s) => String(s.workflowId)) };
  }

  async tasks(query: SearchIndexQuery): Promise<IndexPage<TaskRef>> {
    const found = await this.search('task', query, TASK_FIELDS, ['workflowId', 'taskId']);
    return {
      totalHits: found.totalHits,
      ids: found.sources.map((s) => ({ workflowId: String(s.workflowId), taskId: String(s.taskId) })),
    };
  }

  async write(ops: readonly IndexOp[]): Promise<void> {
    if (ops.length === 0) return;
    await this.ensureIndexes();
    const lines = ops.flatMap((op) => {
      const target = { _index: this.indexOf(op.kind), _id: op.id };
      return op.doc ? [{ index: target }, op.doc] : [{ delete: target }];
    });
    const body = `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
    const response = await this.http.request('POST', '/_bulk', body, 'application/x-ndjson');
    if (response.status !== 200) throw failed(response, 'bulk');
    const answer = response.body as BulkAnswer;
    if (!answer.errors) return;
    // Deleting a document that is not there (never indexed, or deleted twice on a replay) is fine.
    const errors = (answer.items ?? []).flatMap((item) =>
      Object.entries(item).filter(([action, result]) => !(action === 'delete' && result.status === 404)),
    );
    const real = errors.filter(([, result]) => result.error !== undefined);
    if (real.length > 0) {
      throw new Error(
        `OpenSearch refused ${real.length} of ${ops.length} writes: ${JSON.stringify(real[0])}`,
      );
    }
  }

  /** Creates both indexes with their mappings unless they exist (once per process). */
  ensureIndexes(): Promise<void> {
    this.created ??= Promise.all(
      (['workflow', 'task'] as const).map(async (kind) => {
        const mapping = mappingOf(kind === 'workflow' ? WORKFLOW_FIELDS : TASK_FIELDS);
        const response = await this.http.request('PUT', `/${this.indexOf(kind)}`, JSON.stringify(mapping));
        if (response.status === 200) return;
        if (
          response.status === 400 &&
          JSON.stringify(response.body).includes('resource_already_exists_exception')
        ) {
          return;
        }
        throw failed(response, `creating ${this.indexOf(kind)}`);
      }),
    ).then(
      () => undefined,
      (error: unknown) => {
        this.created = undefined;
        throw error;
      },
    );
    return this.created;
  }

  private async search(
    kind: Kind,
    query: SearchIndexQuery,
    fields: Readonly<Record<string, FieldType>>,
    ids: string[],
    extra?: Dsl,
  ): Promise<{ totalHits: number; sources: Record<string, unknown>[] }> {
    if (query.start + query.size > this.maxWindow) {
      throw new ValidationError(
        `start + size may not exceed ${this.maxWindow} on the OpenSearch backend (index.max_result_window)`,
      );
    }
    const body = searchBody(query.expr, query.free, query.sort, query, fields);
    const filtered = extra ? { ...body, query: { bool: { filter: [body.query, extra] } } } : body;
    const request = {
      ...filtered,
      // Ties broken by id, so pages of one query neither overlap nor skip.
      sort: [...(filtered.sort as Dsl[]), ...ids.map((id) => ({ [id]: { order: 'asc' } }))],
      _source: ids,
    };
    const response = await this.http.request(
      'POST',
      `/${this.indexOf(kind)}/_search`,
      JSON.stringify(request),
    );
    // No index yet: nothing was ever indexed.
    if (response.status === 404) return { totalHits: 0, sources: [] };
    if (response.status !== 200) throw failed(response, 'search');
    const hits = (response.body as Hits).hits;
    return {
      totalHits: hits?.total?.value ?? 0,
      sources: (hits?.hits ?? []).map((hit) => hit._source ?? {}),
    };
  }
}
