/**
 * node:http <-> web Request/Response. Bodies over the configured limit are answered 413 without
 * being buffered in full; the edge checks (lib/http/edge.ts) run before the body is read, and
 * what node's own parser refuses is answered with the JSON error body too (clientErrorHandler).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../log/logger.ts';
import { PayloadTooLargeError } from '../model/errors.ts';
import { logAccess, loggableTarget } from './access-log.ts';
import { isTextual } from './content-types.ts';
import { checkEdge, clientErrorResponse, clientErrorStatus, rawHeaderBytesOf } from './edge.ts';
import { errorResponse } from './error-response.ts';
import { NodeRequest } from './node-request.ts';
import { withBodyStream, withKnownText } from './request.ts';
import { streamOf, TextResponse, textOf } from './responses.ts';
import type { Router } from './router.ts';

export interface NodeAdapterOptions {
  router: Router;
  logger: Logger;
  instance: string;
  maxBodyBytes: number;
}

export function nodeHandler(options: NodeAdapterOptions) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void answer(req, res, options);
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, options: NodeAdapterOptions): Promise<void> {
  const startedAt = performance.now();
  let response: Response;
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  // The host header only fills the URL's origin (routing never reads it; the local payload URLs
  // do): one that is not a plain host[:port] is replaced, so a hostile one cannot make the URL
  // unparseable.
  const url = `http://${originHost(req.headers.host)}${target.startsWith('/') ? target : `/${target}`}`;
  let bodyRead = false;
  let raw = false;
  try {
    checkEdge({ method, target, headerBytes: rawHeaderBytesOf(req.rawHeaders) });
    raw = method !== 'GET' && method !== 'HEAD' && options.router.takesRawBody(method, url);
    const body =
      method === 'GET' || method === 'HEAD' || raw ? undefined : await readBody(req, options.maxBodyBytes);
    bodyRead = true;
    const built = request(url, method, req.headers, body);
    response = await options.router.handle(raw ? withBodyStream(built, req) : built);
  } catch (error) {
    response = errorResponse(error, options.instance, options.logger, `${method} ${loggableTarget(target)}`);
    // The rest of a refused body is not read; close the connection instead of draining it.
    if (!bodyRead || error instanceof PayloadTooLargeError) res.setHeader('connection', 'close');
  }
  // A streamed body the route left unread (a refused upload) is not drained either.
  if (raw && !req.readableEnded) res.setHeader('connection', 'close');
  await write(res, response);
  logAccess(options.logger, { method, target, status: response.status, startedAt });
}

function originHost(host: string | undefined): string {
  return host !== undefined &&
    host.length <= 255 &&
    /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
    ? host
    : 'localhost';
}

/**
 * The server's 'clientError' listener: a request node:http's parser refused (headers or request
 * line too long, bytes HTTP does not allow, a malformed request line) is answered with the JSON
 * error body instead of node's bare status line, then the connection closes.
 */
export function clientErrorHandler(instance: string) {
  return (error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket): void => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(clientErrorStatus(error.code, inRequestLine(error.rawPacket)), instance));
  };
}

/**
 * Whether the parser overflowed inside the request line (414) rather than the headers (431). It
 * hands over only the chunk it failed in: one that starts with the request line (which overflowed
 * there only if the line does not end in it: a chunk that holds the whole line and then headers
 * overflowed in the headers), the line's end (` HTTP/1.1`), or a chunk with neither a line end nor
 * a header separator (the middle of an overlong target).
 */
function inRequestLine(packet: Buffer | undefined): boolean {
  if (!packet) return false;
  const end = packet.indexOf('\r\n');
  const line = packet.subarray(0, end >= 0 ? end : packet.length).toString('latin1');
  if (/^[A-Z]+ \//.test(line)) return end < 0;
  if (/ HTTP\/\d\.\d$/.test(line)) return true;
  return end < 0 && !line.includes(': ');
}

/** A web Request (built lazily: node-request.ts); a textual body is also handed over as the string it already is. */
function request(
  url: string,
  method: string,
  headers: IncomingHttpHeaders,
  body: Buffer | undefined,
): Request {
  const type = headers['content-type'];
  const textual = body !== undefined && (type === undefined || isTextual(type));
  if (textual) {
    // Route handlers read bodies through RouteContext.text()/json(), which take the known text;
    // building a body stream nobody reads costs more than the rest of the request.
    return withKnownText(new NodeRequest(url, method, headers), body.toString('utf8'));
  }
  return new NodeRequest(url, method, headers, body && new Uint8Array(body));
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      reject(
        new PayloadTooLargeError(`Request body of ${declared} bytes exceeds the limit of ${limit} bytes`),
      );
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.pause();
        reject(new PayloadTooLargeError(`Request body exceeds the limit of ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function write(res: ServerResponse, response: Response): Promise<void> {
  const source = streamOf(response);
  if (source) {
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    res.writeHead(response.status, headers);
    // A source failing half-way leaves the socket cut: the client sees fewer bytes than the
    // declared Content-Length, never a complete-looking body.
    await pipeline(source(), res).catch(() => res.destroy());
    return;
  }
  let body: Buffer;
  let headers: Record<string, string>;
  if (response instanceof TextResponse && !response.isBuilt) {
    // Nobody read it as a web Response: its status, headers and text go out as they are.
    body = Buffer.from(response.source ?? '', 'utf8');
    headers = { ...response.headerRecord };
  } else {
    const known = textOf(response);
    body = known !== undefined ? Buffer.from(known, 'utf8') : Buffer.from(await response.arrayBuffer());
    headers = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
  }
  if (response.status !== 204 && response.status !== 304) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(response.status === 204 ? undefined : body);
}
