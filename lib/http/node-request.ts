/**
 * The web Request the node:http host hands the router: its method and URL are plain fields, and
 * the standard Request (with its Headers, AbortSignal and body) is built only when a member other
 * than those is first read. Most routes read neither headers nor a body stream (bodies arrive as
 * known text, lib/http/request.ts), so most requests never pay for one.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { LazyBody } from './lazy-body.ts';

export class NodeRequest extends LazyBody implements Request {
  private built?: Request;
  private headerObject?: Headers;

  constructor(
    readonly url: string,
    readonly method: string,
    private readonly nodeHeaders: IncomingHttpHeaders,
    /** A body handed over as bytes (not as known text or a stream); absent for none. */
    private readonly bytes_?: Uint8Array<ArrayBuffer>,
  ) {
    super();
  }

  /** The request's headers, as node:http parsed them (repeated ones joined by ', '). */
  get headers(): Headers {
    if (this.built) return this.built.headers;
    this.headerObject ??= headersOf(this.nodeHeaders);
    return this.headerObject;
  }

  /** The standard Request, built once on first need (with the same Headers object). */
  web(): Request {
    this.built ??= new Request(this.url, { method: this.method, headers: this.headers, body: this.bytes_ });
    return this.built;
  }

  get cache(): RequestCache {
    return this.web().cache;
  }
  get credentials(): RequestCredentials {
    return this.web().credentials;
  }
  get destination(): RequestDestination {
    return this.web().destination;
  }
  get integrity(): string {
    return this.web().integrity;
  }
  get keepalive(): boolean {
    return this.web().keepalive;
  }
  get mode(): RequestMode {
    return this.web().mode;
  }
  get redirect(): RequestRedirect {
    return this.web().redirect;
  }
  get referrer(): string {
    return this.web().referrer;
  }
  get referrerPolicy(): ReferrerPolicy {
    return this.web().referrerPolicy;
  }
  get signal(): AbortSignal {
    return this.web().signal;
  }
  clone(): Request {
    return this.web().clone();
  }
}

function headersOf(nodeHeaders: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(nodeHeaders)) {
    if (value === undefined) continue;
    headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}
