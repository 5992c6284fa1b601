/**
 * Contract pieces the file routes share: the file and upload ids in the path, header-safe string
 * values, and the public origin that URLs handed to clients are built on.
 */
import { type JsonSchema, pathParams } from '../../http/contract.ts';
import type { RouteContext } from '../../http/router.ts';
import type { UrlContext } from '../ports.ts';

const fileIdParam: JsonSchema = {
  type: 'string',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: 'a file id (the UUID of a service://file/ handle)',
};

const workflowIdParam: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 256,
  description: 'a workflow id (1 to 256 characters)',
};

export const FILE_PARAMS = pathParams({ workflowId: workflowIdParam, fileId: fileIdParam });

export const UPLOAD_PARAMS = pathParams({
  workflowId: workflowIdParam,
  fileId: fileIdParam,
  uploadId: { type: 'string', minLength: 1, maxLength: 1024, description: 'a multipart upload id' },
});

/** A header-safe value: printable ASCII, so it can be sent back as Content-Type. */
export const headerValue = (maxLength: number, description: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  pattern: '^[\\x21-\\x7e][\\x20-\\x7e]*$',
  description,
});

/** Public origin of the request: X-Forwarded-Proto / X-Forwarded-Host when a proxy set them. */
export function originOf(ctx: RouteContext): UrlContext {
  const proto = ctx.request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const host = ctx.request.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  const safeHost = host !== undefined && /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/.test(host) ? host : ctx.url.host;
  const scheme = proto === 'http' || proto === 'https' ? proto : ctx.url.protocol.replace(':', '');
  return { origin: `${scheme}://${safeHost}` };
}
