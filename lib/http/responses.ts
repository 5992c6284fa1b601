/**
 * Response builders. Every response carries a Content-Type; empty successes carry
 * Content-Length 0 (200) or no body at all (204).
 */

import type { Readable } from 'node:stream';
import { LazyBody } from './lazy-body.ts';

const JSON_TYPE = 'application/json';

/**
 * A response whose body is a string held as it is: what every JSON and text builder below makes.
 * It is a complete Response to any reader, but the standard object (with its Headers and body
 * stream) is built only when a member other than its status is first read. A host that writes
 * strings itself (node:http) sends `status`, `headerRecord` and `source` straight away, which costs
 * a fraction of building a web Response per request.
 */
export class TextResponse extends LazyBody implements Response {
  readonly type: ResponseType = 'default';
  readonly url = '';
  readonly redirected = false;
  readonly statusText = '';
  private built?: Response;

  constructor(
    /** The body; null for none (204). */
    readonly source: string | null,
    readonly status: number,
    /** Header names in lower case, as Headers has them. */
    readonly headerRecord: Readonly<Record<string, string>>,
  ) {
    super();
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** The standard Response, built once on first need. */
  web(): Response {
    this.built ??= new Response(this.source, { status: this.status, headers: this.headerRecord });
    return this.built;
  }

  /** Whether the standard Response was built (a reader may have changed its headers since). */
  get isBuilt(): boolean {
    return this.built !== undefined;
  }

  get headers(): Headers {
    return this.web().headers;
  }
  clone(): Response {
    return this.web().clone();
  }
}

/** The text a response was built from, for a host that writes strings itself (node:http). */
export function textOf(response: Response): string | undefined {
  return response instanceof TextResponse ? (response.source ?? undefined) : undefined;
}

/** Header names in lower case; a name given twice in different cases keeps both values, as Headers does. */
function headerRecordOf(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    const previous = out[key];
    out[key] = previous === undefined ? value : `${previous}, ${value}`;
  }
  return out;
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
  const all = headers
    ? headerRecordOf({ 'content-type': JSON_TYPE, ...headers })
    : { 'content-type': JSON_TYPE };
  return new TextResponse(JSON.stringify(body), status, all);
}

/** A JSON body that is already serialized (a stored document), sent as it is. */
export function jsonText(body: string, status = 200): Response {
  return new TextResponse(body, status, { 'content-type': JSON_TYPE });
}

/** A plain-text body, e.g. the workflow id answered by a start (read raw by the SDKs, never quoted). */
export function text(body: string, status = 200): Response {
  return new TextResponse(body, status, { 'content-type': TEXT_TYPE });
}

/** 200 with an empty body: Conductor's answer for routes that return nothing. */
export function emptyOk(): Response {
  return new TextResponse('', 200, { 'content-type': TEXT_TYPE, 'content-length': '0' });
}

/** 204: success without a body (e.g. a poll that found nothing). */
export function noContent(): Response {
  return new TextResponse(null, 204, { 'content-type': TEXT_TYPE });
}
