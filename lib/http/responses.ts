/**
 * Response builders. Every response carries a Content-Type; empty successes carry
 * Content-Length 0 (200) or no body at all (204).
 */

const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain; charset=utf-8';

export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_TYPE, ...headers } });
}

/** A plain-text body, e.g. the workflow id answered by a start (read raw by the SDKs, never quoted). */
export function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': TEXT_TYPE } });
}

/** 200 with an empty body: Conductor's answer for routes that return nothing. */
export function emptyOk(): Response {
  return new Response('', { status: 200, headers: { 'content-type': TEXT_TYPE, 'content-length': '0' } });
}

/** 204: success without a body (e.g. a poll that found nothing). */
export function noContent(): Response {
  return new Response(null, { status: 204, headers: { 'content-type': TEXT_TYPE } });
}
