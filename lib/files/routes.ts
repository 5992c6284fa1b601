/**
 * /api/files (SPEC.md "File API"; the routes it leaves unshown follow reference/conductor.md §7.2:
 * upload-URL refresh, metadata, download URL, multipart initiate / part URL / complete / abort).
 * Path variables carry the bare file id; the workflow id in the path is the caller, checked
 * against the file's owner.
 */
import { type JsonSchema, pathParams, stringValue } from '../http/contract.ts';
import { json, noContent, streamed } from '../http/responses.ts';
import { type RouteContext, type RouteDef, route } from '../http/router.ts';
import { ValidationError } from '../model/errors.ts';
import type { ContentTransfer } from './content.ts';
import { MAX_PART_NUMBER, type MultipartUploads } from './multipart.ts';
import type { UrlContext } from './ports.ts';
import type { CreateFileRequest, FileService } from './service.ts';

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
const fileParams = pathParams({ workflowId: workflowIdParam, fileId: fileIdParam });
const uploadParams = pathParams({
  workflowId: workflowIdParam,
  fileId: fileIdParam,
  uploadId: { type: 'string', minLength: 1, maxLength: 1024, description: 'a multipart upload id' },
});
/** A header-safe value: printable ASCII, so it can be sent back as Content-Type. */
const headerValue = (maxLength: number, description: string): JsonSchema => ({
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

/** A JSON route on one file: `/api/files/{workflowId}/{fileId}<suffix>`. */
function fileRoute(
  method: 'GET' | 'POST',
  suffix: '' | `/${string}`,
  summary: string,
  answer: (workflowId: string, fileId: string, ctx: RouteContext) => Promise<unknown>,
): RouteDef {
  return route({
    method,
    path: `/api/files/{workflowId}/{fileId}${suffix}`,
    summary,
    request: { params: fileParams },
    responds: 'application/json',
    handler: async (ctx) => json(await answer(ctx.params.workflowId ?? '', ctx.params.fileId ?? '', ctx)),
  });
}

export interface FileRouteDeps {
  files: FileService;
  multipart: MultipartUploads;
  /** The content routes, on the `service` backend only. */
  content?: ContentTransfer;
}

export function fileRoutes({ files, multipart, content }: FileRouteDeps): RouteDef[] {
  const routes: RouteDef[] = [
    route({
      method: 'POST',
      path: '/api/files',
      summary: 'Create a file record owned by a workflow; answers its handle and an upload URL',
      request: {
        body: {
          title: 'FileCreateRequest',
          required: true,
          schema: {
            type: 'object',
            required: ['workflowId'],
            properties: {
              workflowId: { ...stringValue('The owning workflow'), minLength: 1, maxLength: 256 },
              taskId: { ...stringValue('The task creating it'), maxLength: 256 },
              fileName: { ...stringValue('Name shown to readers'), maxLength: 1024 },
              contentType: headerValue(255, 'The media type served on download'),
            },
          },
        },
      },
      responds: 'application/json',
      handler: async (ctx) =>
        json(await files.create((await ctx.json()) as CreateFileRequest, originOf(ctx)), 201),
    }),
    fileRoute('GET', '', "Read a file's metadata (owner's family)", (wf, id) => files.metadata(wf, id)),
    fileRoute('GET', '/upload-url', 'Issue a fresh upload URL (owner, while UPLOADING)', (wf, id, ctx) =>
      files.refreshUploadUrl(wf, id, originOf(ctx)),
    ),
    fileRoute(
      'POST',
      '/upload-complete',
      'Confirm the upload: records the stored size and SHA-256 (owner)',
      (wf, id) => files.complete(wf, id),
    ),
    fileRoute('GET', '/download-url', 'Issue a download URL (owner’s family, once UPLOADED)', (wf, id, ctx) =>
      files.downloadUrl(wf, id, originOf(ctx)),
    ),
    fileRoute('POST', '/multipart', 'Start a multipart upload (owner; backends with multipart)', (wf, id) =>
      multipart.initiate(wf, id),
    ),
    route({
      method: 'GET',
      path: '/api/files/{workflowId}/{fileId}/multipart/{uploadId}/part/{partNumber}',
      summary: 'Issue the upload URL of one part (owner)',
      request: {
        params: pathParams({
          ...uploadParams.properties,
          partNumber: {
            type: 'string',
            pattern: '^[1-9]\\d{0,4}$',
            description: 'a part number (1 to 10000)',
          },
        }),
      },
      responds: 'application/json',
      handler: async (ctx) => {
        const part = Number(ctx.param('partNumber'));
        if (part > MAX_PART_NUMBER) return partOutOfRange(part);
        return json(
          await multipart.partUrl(ctx.param('workflowId'), ctx.param('fileId'), ctx.param('uploadId'), part),
        );
      },
    }),
    route({
      method: 'POST',
      path: '/api/files/{workflowId}/{fileId}/multipart/{uploadId}/complete',
      summary: 'Complete a multipart upload with its part ETags, in part order (owner)',
      request: {
        params: uploadParams,
        body: {
          title: 'MultipartCompleteRequest',
          required: true,
          schema: {
            type: 'object',
            required: ['partETags'],
            properties: {
              partETags: {
                type: 'array',
                minItems: 1,
                maxItems: MAX_PART_NUMBER,
                items: { type: 'string', minLength: 1, maxLength: 1024 },
                description: 'The ETag of each part, part 1 first',
              },
            },
          },
        },
      },
      responds: 'application/json',
      handler: async (ctx) => {
        const { partETags } = (await ctx.json()) as { partETags: string[] };
        return json(
          await multipart.complete(
            ctx.param('workflowId'),
            ctx.param('fileId'),
            ctx.param('uploadId'),
            partETags,
          ),
        );
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/files/{workflowId}/{fileId}/multipart/{uploadId}',
      summary: 'Abort a multipart upload (owner)',
      request: { params: uploadParams },
      handler: async (ctx) => {
        await multipart.abort(ctx.param('workflowId'), ctx.param('fileId'), ctx.param('uploadId'));
        return noContent();
      },
    }),
  ];
  if (content) routes.push(...contentRoutes(content));
  return routes;
}

function contentRoutes(content: ContentTransfer): RouteDef[] {
  return [
    route({
      method: 'PUT',
      path: '/api/files/content/{workflowId}/{fileId}',
      summary: 'Upload the raw bytes of a file, streamed to storage (owner; service backend)',
      request: { params: fileParams },
      rawBody: true,
      handler: async (ctx) => {
        const length = ctx.request.headers.get('content-length');
        await content.upload(
          ctx.param('workflowId'),
          ctx.param('fileId'),
          ctx.url.searchParams,
          ctx.body(),
          length !== null && /^\d+$/.test(length) ? Number(length) : undefined,
        );
        return noContent();
      },
    }),
    route({
      method: 'GET',
      path: '/api/files/content/{workflowId}/{fileId}',
      summary: 'Download the raw bytes of an UPLOADED file (owner’s family; service backend)',
      request: { params: fileParams },
      handler: async (ctx) => {
        const file = await content.download(
          ctx.param('workflowId'),
          ctx.param('fileId'),
          ctx.url.searchParams,
        );
        return streamed(file.open, 200, {
          'content-type': file.contentType,
          'content-length': String(file.size),
        });
      },
    }),
  ];
}

function partOutOfRange(part: number): never {
  throw new ValidationError(`Part number must be within 1..${MAX_PART_NUMBER}, got ${part}`, [
    { path: 'partNumber', message: `must be within 1..${MAX_PART_NUMBER}`, invalidValue: part },
  ]);
}
