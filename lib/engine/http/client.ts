/**
 * Carries out an HTTP task's request (docs/conductor-compat.md §5.19) and answers the task's result:
 * a 2xx is COMPLETED, anything else FAILED (so the task definition's retries apply), both with
 * `response = {statusCode, headers, body, reasonPhrase}`, the body parsed when it is JSON. A refused
 * connection, a timeout or a refused address is FAILED with the reason and no response.
 *
 * Addresses are checked where the connection is made (the socket's DNS lookup), so a host name
 * that resolves to a private address is refused too, whatever it resolved to before; the socket
 * connects to the addresses checked. A literal address skips that lookup, so it is checked before
 * the request (engine/http/address.ts, which reads IPv4 inside IPv6 forms too). Redirects are not
 * followed (a 3xx is the task's response), so no connection is made to an unchecked address.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage, STATUS_CODES } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { AsyncTaskResult } from '../task-type.ts';
import { refusalOf } from './address.ts';
import type { HttpTaskRequest } from './request.ts';

export interface HttpClientOptions {
  allowPrivateNetworks: boolean;
  /** Largest response body kept (bytes); more fails the task. */
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY = 5 * 1024 * 1024;

export class RefusedAddressError extends Error {}

export async function performHttpRequest(
  req: HttpTaskRequest,
  options: HttpClientOptions,
): Promise<AsyncTaskResult> {
  try {
    const response = await send(req, options);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    if (ok) return { status: 'COMPLETED', outputData: { response } };
    return {
      status: 'FAILED',
      outputData: { response },
      reasonForIncompletion: `Failed to invoke HTTP task due to: ${response.statusCode} ${response.reasonPhrase}`,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { status: 'FAILED', reasonForIncompletion: `Failed to invoke HTTP task due to: ${reason}` };
  }
}

interface HttpTaskResponse {
  statusCode: number;
  reasonPhrase: string;
  headers: Record<string, string[]>;
  body: unknown;
}

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const { address } of allowPrivate ? [] : addresses) {
        const why = refusalOf(address);
        if (why) return callback(refusal(hostname, address, why), '', 0);
      }
      const first = addresses[0];
      if (!first) return callback(new Error(`no address for ${hostname}`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

function refusal(host: string, address: string, why: string): RefusedAddressError {
  const of = host === address ? '' : ` of ${host}`;
  return new RefusedAddressError(
    `the address ${address}${of} is ${why}; HTTP tasks may not reach private, loopback or link-local addresses (service.http-task.allow-private-networks)`,
  );
}

function send(req: HttpTaskRequest, options: HttpClientOptions): Promise<HttpTaskResponse> {
  const url = new URL(req.uri);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address never goes through lookup: check it here.
  const why = isIP(host) && !options.allowPrivateNetworks ? refusalOf(host) : undefined;
  if (why) return Promise.reject(refusal(host, host, why));
  const body = encodeBody(req);
  const headers: Record<string, string> = { Accept: req.accept, ...req.headers };
  if (body !== undefined) {
    headers['Content-Type'] ??= req.contentType;
    headers['Content-Length'] = String(body.length);
  }
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  return new Promise((resolve, reject) => {
    const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = make(url, {
      method: req.method,
      headers,
      lookup: guardedLookup(options.allowPrivateNetworks),
    });
    const connectTimer = setTimeout(() => {
      outgoing.destroy(new Error(`connect timed out after ${req.connectionTimeOut} ms`));
    }, req.connectionTimeOut);
    outgoing.on('socket', (socket) => {
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    outgoing.setTimeout(req.readTimeOut, () => {
      outgoing.destroy(new Error(`read timed out after ${req.readTimeOut} ms`));
    });
    outgoing.on('error', (error) => {
      clearTimeout(connectTimer);
      reject(error);
    });
    outgoing.on('response', (res: IncomingMessage) => {
      clearTimeout(connectTimer);
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBody) outgoing.destroy(new Error(`response body larger than ${maxBody} bytes`));
        else chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve({
          statusCode: status,
          reasonPhrase: res.statusMessage || STATUS_CODES[status] || '',
          headers: headersOf(res),
          body: parseBody(Buffer.concat(chunks).toString('utf8')),
        });
      });
    });
    outgoing.end(body);
  });
}

function encodeBody(req: HttpTaskRequest): Buffer | undefined {
  if (req.body === undefined || req.body === null || req.method === 'GET' || req.method === 'HEAD')
    return undefined;
  return Buffer.from(typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
}

function headersOf(res: IncomingMessage): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(res.headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value : [value];
  }
  return out;
}

/** JSON when it parses (object, array, number...), the text otherwise. */
function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
