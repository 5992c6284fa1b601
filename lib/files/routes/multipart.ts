/**
 * Multipart uploads, on backends that have them: start one, the upload URL of each part, complete
 * with the parts' ETags, abort.
 */
import { pathParams } from '../../http/contract.ts';
import { json, noContent } from '../../http/responses.ts';
import { route } from '../../http/router.ts';
import { ValidationError } from '../../model/errors.ts';
import { MAX_PART_NUMBER, type MultipartUploads } from '../multipart.ts';
import { FILE_PARAMS, UPLOAD_PARAMS } from './contracts.ts';

export const initiateMultipart = (multipart: MultipartUploads) =>
  route({
    method: 'POST',
    path: '/api/files/{workflowId}/{fileId}/multipart',
    permission: 'payloads',
    summary: 'Start a multipart upload (owner; backends with multipart)',
    request: { params: FILE_PARAMS },
    responds: 'application/json',
    handler: async (ctx) => json(await multipart.initiate(ctx.param('workflowId'), ctx.param('fileId'))),
  });

export const partUrl = (multipart: MultipartUploads) =>
  route({
    method: 'GET',
    path: '/api/files/{workflowId}/{fileId}/multipart/{uploadId}/part/{partNumber}',
    permission: 'payloads',
    summary: 'Issue the upload URL of one part (owner)',
    request: {
      params: pathParams({
        ...UPLOAD_PARAMS.properties,
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
  });

export const completeMultipart = (multipart: MultipartUploads) =>
  route({
    method: 'POST',
    path: '/api/files/{workflowId}/{fileId}/multipart/{uploadId}/complete',
    permission: 'payloads',
    summary: 'Complete a multipart upload with its part ETags, in part order (owner)',
    request: {
      params: UPLOAD_PARAMS,
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
  });

export const abortMultipart = (multipart: MultipartUploads) =>
  route({
    method: 'DELETE',
    path: '/api/files/{workflowId}/{fileId}/multipart/{uploadId}',
    permission: 'payloads',
    summary: 'Abort a multipart upload (owner)',
    request: { params: UPLOAD_PARAMS },
    handler: async (ctx) => {
      await multipart.abort(ctx.param('workflowId'), ctx.param('fileId'), ctx.param('uploadId'));
      return noContent();
    },
  });

function partOutOfRange(part: number): never {
  throw new ValidationError(`Part number must be within 1..${MAX_PART_NUMBER}, got ${part}`, [
    { path: 'partNumber', message: `must be within 1..${MAX_PART_NUMBER}`, invalidValue: part },
  ]);
}
