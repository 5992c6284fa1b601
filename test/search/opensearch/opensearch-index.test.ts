// The OpenSearch adapter over the wire: a loopback fake at the edge sees the signed requests it sends.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TransientError, ValidationError } from '../../../lib/model/errors.ts';
import { parseFreeText } from '../../../lib/search/free-text.ts';
import { OpenSearchIndex } from '../../../lib/search/opensearch/opensearch-index.ts';
import { SignedOpenSearchHttp } from '../../../lib/search/opensearch/signed-http.ts';
import type { SearchIndexQuery } from '../../../lib/search/ports.ts';
import { parseQuery } from '../../../lib/search/query-parser.ts';
import { FakeOpenSearch, hitsOf } from './fake-opensearch.ts';

const NOW = 1_700_000_000_000;
const credentials = async () => ({
  accessKeyId: 'AKIDTEST',
  secretAccessKey: 'secret',
  sessionToken: 'token-1',
});

const queryOf = (query: string | undefined, extra: Partial<SearchIndexQuery> = {}): SearchIndexQuery => ({
  expr: parseQuery(query),
  free: parseFreeText('*'),
  sort: [{ field: 'startTime', descending: true }],
  start: 0,
  size: 10,
  now: NOW,
  ...extra,
});

describe('OpenSearchIndex over signed HTTP', () => {
  const fake = new FakeOpenSearch();
  let index: OpenSearchIndex;

  beforeEach(async () => {
    fake.requests.length = 0;
    await fake.start();
    index = new OpenSearchIndex(
      new SignedOpenSearchHttp({ url: fake.url, region: 'eu-west-1', service: 'aoss' }, credentials),
      'conductor',
    );
  });

  afterEach(async () => {
    await fake.stop();
  });

  it('signs every request with SigV4 for aoss, including the payload hash and the session token', async () => {
    fake.answer(hitsOf(0, []));
    await index.workflows(queryOf('status = RUNNING'));
    const [request] = fake.requests;
    expect(request?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/aoss\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/,
    );
    const signed = /SignedHeaders=([^,]+)/.exec(String(request?.headers.authorization))?.[1]?.split(';');
    expect(signed).toEqual(
      expect.arrayContaining(['host', 'x-amz-content-sha256', 'x-amz-date', 'content-type']),
    );
    expect(request?.headers['x-amz-content-sha256']).toBe(
      createHash('sha256')
        .update(request?.body ?? '')
        .digest('hex'),
    );
    expect(request?.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(request?.headers['x-amz-security-token']).toBe('token-1');
  });

  it('searches the workflows index with the translated query, live runs only, paged and sorted with an id tie-break', async () => {
    fake.answer(hitsOf(42, [{ workflowId: 'wf-7' }, { workflowId: 'wf-3' }]));
    const page = await index.workflows(
      queryOf('workflowType IN (a,b) AND status = COMPLETED', { start: 5, size: 2 }),
    );
    expect(page).toEqual({ totalHits: 42, ids: ['wf-7', 'wf-3'] });
    const [request] = fake.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/conductor-workflows/_search');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      from: 5,
      size: 2,
      track_total_hits: true,
      query: {
        bool: {
          filter: [
            {
              bool: {
                filter: [
                  {
                    bool: {
                      filter: [{ terms: { workflowType: ['a', 'b'] } }, { term: { status: 'COMPLETED' } }],
                    },
                  },
                ],
              },
            },
            { bool: { must_not: [{ range: { expiresAt: { lte: NOW } } }] } },
          ],
        },
      },
      sort: [{ startTime: { order: 'desc' } }, { workflowId: { order: 'asc' } }],
      _source: ['workflowId'],
    });
  });

  it('searches the tasks index and reads back task refs; free text becomes query_string', async () => {
    fake.answer(hitsOf(1, [{ workflowId: 'wf-1', taskId: 't-1' }]));
    const page = await index.tasks({
      ...queryOf('taskType = HTTP'),
      free: parseFreeText('needle'),
      sort: [{ field: 'scheduledTime', descending: false }],
    });
    expect(page).toEqual({ totalHits: 1, ids: [{ workflowId: 'wf-1', taskId: 't-1' }] });
    const body = JSON.parse(fake.requests[0]?.body ?? '');
    expect(fake.requests[0]?.path).toBe('/conductor-tasks/_search');
    expect(body.query).toEqual({
      bool: {
        filter: [
          { term: { taskType: 'HTTP' } },
          { query_string: { query: '*needle*', default_operator: 'AND' } },
        ],
      },
    });
    expect(body.sort).toEqual([
      { scheduledTime: { order: 'asc' } },
      { workflowId: { order: 'asc' } },
      { taskId: { order: 'asc' } },
    ]);
  });

  it('answers no hits while the index does not exist yet (nothing indexed)', async () => {
    fake.answer({ status: 404, body: { error: { type: 'index_not_found_exception' } } });
    expect(await index.workflows(queryOf(undefined))).toEqual({ totalHits: 0, ids: [] });
  });

  it('refuses a page beyond the result window with a 400, without asking OpenSearch', async () => {
    await expect(index.workflows(queryOf(undefined, { start: 9_000, size: 1_001 }))).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('reports throttling and server errors as transient', async () => {
    fake.answer({ status: 429, body: { error: 'too many' } });
    await expect(index.workflows(queryOf(undefined))).rejects.toBeInstanceOf(TransientError);
    fake.answer({ status: 503 });
    await expect(index.tasks(queryOf(undefined))).rejects.toBeInstanceOf(TransientError);
  });

  it('creates both indexes with explicit mappings once, then writes in order through _bulk', async () => {
    fake.answer(
      { status: 200, body: { acknowledged: true } },
      { status: 400, body: { error: { type: 'resource_already_exists_exception' } } },
      { status: 200, body: { errors: false, items: [] } },
      { status: 200, body: { errors: false, items: [] } },
    );
    await index.write([
      { kind: 'workflow', id: 'wf-1', doc: { workflowId: 'wf-1', status: 'RUNNING' } },
      { kind: 'task', id: 't-1' },
    ]);
    await index.write([{ kind: 'workflow', id: 'wf-2' }]);
    const [first, second, bulk, again] = fake.requests;
    expect([first, second].map((r) => `${r?.method} ${r?.path}`).sort()).toEqual([
      'PUT /conductor-tasks',
      'PUT /conductor-workflows',
    ]);
    const mapping = JSON.parse(
      [first, second].find((r) => r?.path === '/conductor-workflows')?.body ?? '',
    ).mappings;
    expect(mapping.properties.workflowType).toEqual({ type: 'keyword' });
    expect(mapping.properties.startTime).toEqual({ type: 'date', format: 'epoch_millis' });
    expect(mapping.properties.version).toEqual({ type: 'long' });
    expect(mapping.properties.text).toEqual({ type: 'text' });
    expect(mapping.properties.expiresAt).toEqual({ type: 'date', format: 'epoch_millis' });
    expect(`${bulk?.method} ${bulk?.path}`).toBe('POST /_bulk');
    expect(bulk?.headers['content-type']).toBe('application/x-ndjson');
    expect(bulk?.body.split('\n')).toEqual([
      JSON.stringify({ index: { _index: 'conductor-workflows', _id: 'wf-1' } }),
      JSON.stringify({ workflowId: 'wf-1', status: 'RUNNING' }),
      JSON.stringify({ delete: { _index: 'conductor-tasks', _id: 't-1' } }),
      '',
    ]);
    // The indexes were made by the first write; the second goes straight to _bulk.
    expect(`${again?.method} ${again?.path}`).toBe('POST /_bulk');
    expect(fake.requests).toHaveLength(4);
  });

  it('takes a delete of a missing document as done, and throws when a write was refused', async () => {
    fake.answer(
      { status: 200 },
      { status: 200 },
      { status: 200, body: { errors: true, items: [{ delete: { status: 404, result: 'not_found' } }] } },
    );
    await index.write([{ kind: 'task', id: 'gone' }]);
    fake.answer({
      status: 200,
      body: {
        errors: true,
        items: [
          { index: { status: 201 } },
          { index: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'bad' } } },
        ],
      },
    });
    await expect(
      index.write([
        { kind: 'workflow', id: 'a', doc: {} },
        { kind: 'workflow', id: 'b', doc: {} },
      ]),
    ).rejects.toThrow(/refused 1 of 2 writes.*mapper_parsing_exception/);
  });

  it('tries to create the indexes again after a failed attempt', async () => {
    fake.answer({ status: 403, body: { message: 'denied' } }, { status: 403, body: { message: 'denied' } });
    await expect(index.write([{ kind: 'task', id: 't' }])).rejects.toThrow(/403/);
    fake.answer({ status: 200 }, { status: 200 }, { status: 200, body: { errors: false } });
    await index.write([{ kind: 'task', id: 't' }]);
    expect(fake.requests.at(-1)?.path).toBe('/_bulk');
  });
});
