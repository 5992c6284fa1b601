/**
 * Serves the built management UI (ui/dist) from the local host at `/`, beside the API: a GET or
 * HEAD for a file under the directory answers that file; any other path without a file extension
 * answers index.html, so the UI's client-side routes survive a reload (SPA fallback). A path the
 * router claims (Router.claims: under `/api`, a path any route's template matches, or under the
 * first segment of a route, such as `/swagger-ui/index.html` or `/api-docs/swagger-config`) is never
 * answered here, so the UI cannot shadow the API. On AWS, CloudFront and S3 do this job
 * (infra/constructs/ui.ts).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

export interface StaticSiteOptions {
  /** The built UI; nothing is served when it has no index.html. */
  dir: string;
  /** Whether the router answers a (decoded) path: the router's own route table decides (Router.claims). */
  claims: (pathname: string) => boolean;
}

/** `(req, res) => handled`: true when the UI answers the request, false when the API should. */
export type StaticSite = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Whether a decoded path is the API's: under `/api`, or claimed by the router. */
export function isApiPath(pathname: string, claims: (pathname: string) => boolean = () => false): boolean {
  return pathname === '/api' || pathname.startsWith('/api/') || claims(pathname);
}

/**
 * Whether a raw request target is under `/api` whatever URL parsing makes of it, told without
 * parsing it (most requests are API calls): it starts with `/api/` and its path holds nothing that
 * parsing could turn into a dot segment or a separator. Anything else is parsed (isApiPath).
 */
export function surelyApi(target: string): boolean {
  if (target === '/api' || target.startsWith('/api?')) return true;
  if (!target.startsWith('/api/')) return false;
  const end = target.search(/[?#]/);
  const path = end < 0 ? target : target.slice(0, end);
  return !/\/\.|\\|%2e|%5c|[\t\n\r]/i.test(path);
}

export function staticSite(options: StaticSiteOptions): StaticSite | undefined {
  const root = resolve(options.dir);
  const index = join(root, 'index.html');
  if (!existsSync(index)) return undefined;
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (surelyApi(req.url ?? '/')) return false;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://ui').pathname);
    } catch {
      return false;
    }
    if (isApiPath(pathname, options.claims) || pathname.includes('\0')) return false;
    const file = resolve(root, `.${pathname}`);
    // `..` segments are resolved away by URL parsing; this also refuses anything that escapes.
    if (file !== root && !file.startsWith(root + sep)) return false;
    const size = fileSize(file);
    if (size !== undefined) {
      send(res, req.method, file, size, pathname.startsWith('/assets/'));
      return true;
    }
    if (extname(pathname) !== '') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '10' });
      res.end(req.method === 'HEAD' ? undefined : 'Not found\n');
      return true;
    }
    const indexSize = fileSize(index);
    if (indexSize === undefined) return false;
    send(res, req.method, index, indexSize, false);
    return true;
  };
}

/** The size of a regular file, read with one stat; undefined for anything else or nothing. */
function fileSize(path: string): number | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, method: string, file: string, size: number, hashed: boolean): void {
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': String(size),
    // Built assets carry a content hash in their names; index.html must always be revalidated.
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
