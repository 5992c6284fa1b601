/**
 * The one access line per request (info): method, path, status and milliseconds, written by each
 * host's HTTP edge (node:http and Lambda adapters) once the answer is ready. The line never holds
 * a header (X-Authorization carries tokens) nor a query value that may be a credential: presigned
 * URLs carry `sig`, `X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token`; a query
 * parameter whose name says token, key, secret, password, signature or credential is masked.
 */
import type { Logger } from '../log/logger.ts';

const SECRET_NAME = /sig|token|secret|key|password|credential|auth/i;
const MASK = '***';

/**
 * A request target fit for a log line: the path as sent, and the query with the value of every
 * parameter that could be a credential masked. Anything unparsable keeps only its path.
 */
export function loggableTarget(target: string): string {
  const mark = target.indexOf('?');
  if (mark < 0) return target;
  const path = target.slice(0, mark);
  const query = target.slice(mark + 1);
  if (query === '') return path;
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    let decoded: string;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      return MASK;
    }
    return eq < 0 || !SECRET_NAME.test(decoded) ? part : `${name}=${MASK}`;
  });
  return `${path}?${parts.join('&')}`;
}

export interface AccessEntry {
  method: string;
  /** The request target as sent (path and query); logged through loggableTarget. */
  target: string;
  status: number;
  /** performance.now() when the request arrived. */
  startedAt: number;
  /** The host's id of the request (API Gateway's on AWS), when it has one. */
  requestId?: string;
}

export function logAccess(logger: Logger, entry: AccessEntry): void {
  if (logger.level === 'warn' || logger.level === 'error') return;
  logger.info('request', {
    method: entry.method,
    path: loggableTarget(entry.target),
    status: entry.status,
    ms: Math.round((performance.now() - entry.startedAt) * 10) / 10,
    ...(entry.requestId ? { requestId: entry.requestId } : {}),
  });
}
