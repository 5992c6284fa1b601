/**
 * The raw bytes of a file, on the `service` backend only: the upload streamed to storage as it
 * arrives, and the download streamed back.
 */
import { noContent, streamed } from '../../http/responses.ts';
import { route } from '../../http/router.ts';
import type { ContentTransfer } from '../content.ts';
import { FILE_PARAMS } from './contracts.ts';

export const uploadContent = (content: ContentTransfer) =>
  route({
    method: 'PUT',
    path: '/api/files/content/{workflowId}/{fileId}',
    permission: 'payloads',
    summary: 'Upload the raw bytes of a file, streamed to storage (owner; service backend)',
    request: { params: FILE_PARAMS },
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
  });

export const downloadContent = (content: ContentTransfer) =>
  route({
    method: 'GET',
    path: '/api/files/content/{workflowId}/{fileId}',
    permission: 'payloads',
    summary: 'Download the raw bytes of an UPLOADED file (owner’s family; service backend)',
    request: { params: FILE_PARAMS },
    handler: async (ctx) => {
      const file = await content.download(ctx.param('workflowId'), ctx.param('fileId'), ctx.url.searchParams);
      return streamed(file.open, 200, {
        'content-type': file.contentType,
        'content-length': String(file.size),
      });
    },
  });
