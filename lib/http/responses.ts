/**
 * Response builders. Every response carries a Content-Type; empty successes carry
 * Content-Length 0 (200) or no body at all (204).
 */

import type { Readable } from 'node:stream';

const JSON_TYPE = 'application/json';

/**
 * The text each built response was made from. Hosts that can write a string directly (node:http)
 * use it instead of reading the body stream back, which costs more than the request itself; the
 * Response stays a complete, standard one for every other reader.
 */
const sourceText = new WeakMap<Response, string>();

export function textOf(response: Response): string | undefined {
  return sourceText.get(response);
}

function withText(body: string, init: ResponseInit): Response {
  const response = new Response(body, init);
  sourceText.set(response, body);
  return response;
}
const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * Streamed bodies (file downloads): the node:http host pipes the source straight to the socket;
 * every other reader gets a web stream that opens the source only when first read.
 */
const sourceStream = new WeakMap<Response, () => Readable>();

export function streamOf(response: Response): (() => Readable) | undefined {
  return sourceStream.get(response);
}

/** A response whose body is read from `open()` as it is sent, never held whole in memory. */
export function streamed(open: () => Readable, status: number, headers: Record<string, string>): Response {
  let chunks: AsyncIterator<Buffer> | undefined;
  // highWaterMark 0: nothing is read (or opened) before a reader asks.
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= open()[Symbol.asyncIterator]();
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value));
      },
      async cancel() {
        await chunks?.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  const response = new Response(body, { status, headers });
  sourceStream.set(response, open);
  return response;
}

export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return withText(JSON.stringify(body), { status, headers: { 'content-type': JSON_TYPE, ...headers } });
}

/** A JSON body that is already serialized (a stored document), sent as it is. */
export function jsonText(body: string, status = 200): Response {
  return withText(body, { status, headers: { 'content-type': JSON_TYPE } });
}

/** A plain-text body, e.g. the workflow id answered by a start (read raw by the SDKs, never quoted). */
export function text(body: string, status = 200): Response {
  return withText(body, { status, headers: { 'content-type': TEXT_TYPE } });
}

/** 200 with an empty body: Conductor's answer for routes that return nothing. */
export function emptyOk(): Response {
  return withText('', { status: 200, headers: { 'content-type': TEXT_TYPE, 'content-length': '0' } });
}

/** 204: success without a body (e.g. a poll that found nothing). */
export function noContent(): Response {
  return new Response(null, { status: 204, headers: { 'content-type': TEXT_TYPE } });
}
