/**
 * The lazily built web objects of the HTTP layer: TextResponse (lib/http/responses.ts) and
 * NodeRequest (lib/http/node-request.ts) read like the standard Response and Request they stand
 * for, and surelyApi (lib/http/static-site.ts) agrees with URL parsing.
 */
import { describe, expect, it } from 'vitest';
import { NodeRequest } from '../../lib/http/node-request.ts';
import { emptyOk, json, jsonText, noContent, TextResponse, text, textOf } from '../../lib/http/responses.ts';
import { isApiPath, surelyApi } from '../../lib/http/static-site.ts';

async function readAll(response: Response) {
  const headers: [string, string][] = [];
  response.headers.forEach((value, key) => {
    headers.push([key, value]);
  });
  return {
    status: response.status,
    ok: response.ok,
    statusText: response.statusText,
    type: response.type,
    headers,
    body: response.status === 204 ? null : await response.text(),
  };
}

describe('TextResponse', () => {
  it('reads like the standard Response built from the same status, headers and body', async () => {
    const cases: [Response, Response][] = [
      [json({ a: 1 }), new Response('{"a":1}', { headers: { 'content-type': 'application/json' } })],
      [
        json({ b: [1] }, 201, { Location: '/x' }),
        new Response('{"b":[1]}', {
          status: 201,
          headers: { 'content-type': 'application/json', location: '/x' },
        }),
      ],
      [
        jsonText('[]', 409),
        new Response('[]', { status: 409, headers: { 'content-type': 'application/json' } }),
      ],
      [text('id-1'), new Response('id-1', { headers: { 'content-type': 'text/plain; charset=utf-8' } })],
      [
        emptyOk(),
        new Response('', { headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': '0' } }),
      ],
      [
        noContent(),
        new Response(null, { status: 204, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
      ],
    ];
    for (const [built, standard] of cases) {
      expect(built).toBeInstanceOf(TextResponse);
      expect(await readAll(built)).toEqual(await readAll(standard));
    }
  });

  it('answers json() and arrayBuffer(), and its body can be read once like any Response', async () => {
    const response = json({ n: 1, s: 'é' }, 400);
    expect(response.ok).toBe(false);
    expect(await response.json()).toEqual({ n: 1, s: 'é' });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow();
    const bytes = await json({ s: 'é' }).arrayBuffer();
    expect(Buffer.from(bytes).toString('utf8')).toBe('{"s":"é"}');
  });

  it('builds the standard Response only when a member beyond its status is read', () => {
    const response = json({ a: 1 }) as TextResponse;
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.isBuilt).toBe(false);
    expect(textOf(response)).toBe('{"a":1}');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.isBuilt).toBe(true);
  });

  it('keeps both values of a header given twice in different cases, as Headers does', async () => {
    const response = json({}, 200, { 'X-A': '1', 'x-a': '2' }) as TextResponse;
    expect(response.headerRecord['x-a']).toBe('1, 2');
    expect(response.headers.get('x-a')).toBe('1, 2');
  });
});

describe('NodeRequest', () => {
  const headers = { 'content-type': 'application/octet-stream', 'x-many': ['a', 'b'], host: 'h' };

  it('has method, url and headers without building a standard Request, and the same headers after', async () => {
    const request = new NodeRequest('http://h/api/x?y=1', 'POST', headers, new Uint8Array([1, 2, 3]));
    expect(request.method).toBe('POST');
    expect(request.url).toBe('http://h/api/x?y=1');
    expect(request.headers.get('x-many')).toBe('a, b');
    expect(request.headers.get('content-type')).toBe('application/octet-stream');
    // Reading the body builds the standard Request, which carries the bytes and the same headers.
    expect([...new Uint8Array(await request.arrayBuffer())]).toEqual([1, 2, 3]);
    expect(request.bodyUsed).toBe(true);
    expect(request.headers.get('x-many')).toBe('a, b');
    expect(request.signal).toBeInstanceOf(AbortSignal);
  });

  it('has an empty body when none was handed over', async () => {
    const request = new NodeRequest('http://h/api/x', 'GET', {});
    expect(request.body).toBeNull();
    expect(await request.text()).toBe('');
  });
});

describe('surelyApi', () => {
  const parsedApi = (target: string) => isApiPath(decodeURIComponent(new URL(target, 'http://ui').pathname));

  it('says yes only for targets URL parsing also puts under /api', () => {
    const targets = [
      '/api',
      '/api?x=1',
      '/api/',
      '/api/tasks/poll/batch/t?count=1&timeout=100',
      '/api/workflow/a%20b/c.d',
      '/api/../index.html',
      '/api/./x',
      '/api/%2e%2e/index.html',
      '/api/%2E./x',
      '/api\\..\\index.html',
      '/api/x\\..\\..\\index.html',
      '/apis',
      '/api.json',
      '/',
      '/index.html',
      '/api/x?next=/../y',
    ];
    for (const target of targets) {
      if (surelyApi(target)) expect(parsedApi(target), target).toBe(true);
    }
    expect(surelyApi('/api/tasks/poll/batch/t?count=1')).toBe(true);
    expect(surelyApi('/api/../index.html')).toBe(false);
    expect(surelyApi('/api/%2e%2e/index.html')).toBe(false);
    expect(surelyApi('/apis')).toBe(false);
  });
});
