/**
 * Hostile requests against every registered route (issue 8): a seeded generator, so a failure
 * replays from its seed, and a runner that checks each answer. Shared by the fuzz suite
 * (test/http/fuzz.test.ts) and the longer bench run (bench/fuzz.ts, `npm run bench:fuzz`).
 */
import type { RouteDef } from '../../lib/http/router.ts';

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface HostileRequest {
  method: string;
  /** Path and query, already in the form sent. */
  target: string;
  body?: string;
  kind: string;
}

const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Path parameter values, as they go into the path (some pre-encoded, some raw). */
const PARAMS: [string, () => string][] = [
  ['unknown id', () => 'no-such-thing-0f3a'],
  ['huge id', () => 'i'.repeat(9000)],
  ['long id', () => 'l'.repeat(3000)],
  ['dot-dot', () => '..'],
  ['encoded dot-dot', () => '%2E%2E'],
  ['encoded slash', () => 'a%2Fb'],
  ['NUL', () => '%00'],
  ['CRLF', () => 'a%0D%0Ab'],
  ['bad percent', () => '%E0%A4%A'],
  ['bad UTF-8', () => '%FF%FE'],
  ['lone percent', () => '%'],
  ['unicode', () => encodeURIComponent('名前🙂')],
  ['prototype', () => '__proto__'],
  ['constructor', () => 'constructor'],
  ['number out of range', () => '99999999999999999999999'],
  ['negative', () => '-1'],
  ['NaN', () => 'NaN'],
  ['space', () => '%20'],
  ['status-like', () => 'COMPLETED'],
];

/** Bodies: malformed, wrong shapes, deep, huge, prototype keys, numbers out of range. */
const BODIES: [string, () => string][] = [
  ['malformed JSON', () => '{"a":'],
  ['truncated JSON', () => '{"name":"x","tasks":[{"name":"t"'],
  ['not JSON', () => 'hello world'],
  ['number', () => '1'],
  ['string', () => '"s"'],
  ['null', () => 'null'],
  ['true', () => 'true'],
  ['empty array', () => '[]'],
  ['empty object', () => '{}'],
  ['deep object 200', () => deep(200)],
  ['deep object 5000', () => deep(5000)],
  ['deep array 20000', () => deepArray(20000)],
  ['huge array', () => JSON.stringify(Array.from({ length: 5000 }, (_, i) => `id-${i % 7}`))],
  ['huge string', () => JSON.stringify({ name: 'x'.repeat(1_000_000), taskId: 'y'.repeat(1000) })],
  ['huge key', () => `{"${'k'.repeat(200_000)}":1}`],
  [
    'prototype keys',
    () =>
      '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"name":"__proto__","taskId":"__proto__","workflowInstanceId":"constructor","status":"COMPLETED"}',
  ],
  ['numbers out of range', () => '{"version":1e309,"priority":-1e400,"count":99999999999999999999999}'],
  ['wrong field types', () => '{"name":1,"version":"x","tasks":"no","input":[],"status":7,"taskId":{}}'],
  ['duplicate keys', () => '{"name":"a","name":"b","name":"c"}'],
  ['array of junk', () => '[1,null,{},[],"x",true]'],
  ['NUL and CRLF', () => '{"name":"a\\u0000b\\r\\nc","taskId":"\\u0000"}'],
];

const QUERIES: [string, () => string][] = [
  ['none', () => ''],
  ['repeated', () => '?count=1&count=2&count=x&start=0&start=-5'],
  ['unknown', () => '?zzz=1&__proto__=1&constructor=x'],
  ['out of range', () => '?count=999999999999&start=-1&version=0&timeout=-3&size=1e9'],
  ['junk booleans', () => '?includeTasks=maybe&includeClosed=2&overwrite=yes'],
  ['many values', () => `?taskType=${Array.from({ length: 1500 }, (_, i) => `t${i}`).join(',')}`],
  ['bad percent', () => '?q=%E0%A4%A&name=%'],
];

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

/** One hostile request for a route: hostile path values, and a hostile query and body. */
export function hostileRequest(random: () => number, route: RouteDef): HostileRequest {
  const kinds: string[] = [];
  const path = route.path.replace(/\{\w+\}/g, () => {
    const [kind, value] = pick(random, PARAMS);
    kinds.push(kind);
    return value();
  });
  const [queryKind, query] = pick(random, QUERIES);
  // Mostly the route's own method; sometimes another, for 405s.
  const method = random() < 0.9 ? route.method : pick(random, METHODS);
  const hasBody = method !== 'GET' && method !== 'DELETE';
  const [bodyKind, body] = pick(random, BODIES);
  kinds.push(`query: ${queryKind}`);
  if (hasBody) kinds.push(`body: ${bodyKind}`);
  return { method, target: `${path}${query()}`, body: hasBody ? body() : undefined, kind: kinds.join(', ') };
}

export interface FuzzFailure {
  request: string;
  problem: string;
}

export type Send = (target: string, init: RequestInit) => Promise<Response>;

/** Sends one hostile request and says what is wrong with the answer, if anything. */
export async function check(
  send: Send,
  request: HostileRequest,
  budgetMs: number,
): Promise<{ failure?: FuzzFailure; ms: number; status: number }> {
  const started = performance.now();
  const response = await send(request.target, {
    method: request.method,
    headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
    body: request.body,
  });
  const text = await response.text();
  const ms = performance.now() - started;
  const describe = `${request.method} ${request.target.slice(0, 120)} [${request.kind}]`;
  const fail = (problem: string) => ({
    failure: { request: describe, problem },
    ms,
    status: response.status,
  });
  if (response.status >= 500) return fail(`answered ${response.status}: ${text.slice(0, 300)}`);
  if (ms > budgetMs) return fail(`took ${Math.round(ms)} ms`);
  if (response.status >= 400) {
    if (!response.headers.get('content-type')?.startsWith('application/json'))
      return fail(`error without a JSON content type (${response.status})`);
    let body: { status?: unknown; message?: unknown; instance?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return fail(`error body is not JSON: ${text.slice(0, 100)}`);
    }
    if (
      body.status !== response.status ||
      typeof body.message !== 'string' ||
      typeof body.instance !== 'string'
    )
      return fail(`incomplete error body: ${text.slice(0, 200)}`);
    if (text.length > 4096) return fail(`error body of ${text.length} characters`);
  }
  return { ms, status: response.status };
}
