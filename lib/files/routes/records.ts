/**
 * A file's record: creating it (its handle and an upload URL), reading its metadata, and the URLs
 * of its single-request upload and its download.
 */
import { stringValue } from '../../http/contract.ts';
import { json } from '../../http/responses.ts';
import { route } from '../../http/router.ts';
import type { CreateFileRequest, FileService } from '../service.ts';
import { FILE_PARAMS, headerValue, originOf } from './contracts.ts';

export const createFile = (files: FileService) =>
  route({
    method: 'POST',
    path: '/api/files',
    permission: 'payloads',
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
  });

export const fileMetadata = (files: FileService) =>
  route({
    method: 'GET',
    path: '/api/files/{workflowId}/{fileId}',
    permission: 'payloads',
    summary: "Read a file's metadata (owner's family)",
    request: { params: FILE_PARAMS },
    responds: 'application/json',
    handler: async (ctx) => json(await files.metadata(ctx.param('workflowId'), ctx.param('fileId'))),
  });

export const uploadUrl = (files: FileService) =>
  route({
    method: 'GET',
    path: '/api/files/{workflowId}/{fileId}/upload-url',
    permission: 'payloads',
    summary: 'Issue a fresh upload URL (owner, while UPLOADING)',
    request: { params: FILE_PARAMS },
    responds: 'application/json',
    handler: async (ctx) =>
      json(await files.refreshUploadUrl(ctx.param('workflowId'), ctx.param('fileId'), originOf(ctx))),
  });

export const uploadComplete = (files: FileService) =>
  route({
    method: 'POST',
    path: '/api/files/{workflowId}/{fileId}/upload-complete',
    permission: 'payloads',
    summary: 'Confirm the upload: records the stored size and SHA-256 (owner)',
    request: { params: FILE_PARAMS },
    responds: 'application/json',
    handler: async (ctx) => json(await files.complete(ctx.param('workflowId'), ctx.param('fileId'))),
  });

export const downloadUrl = (files: FileService) =>
  route({
    method: 'GET',
    path: '/api/files/{workflowId}/{fileId}/download-url',
    permission: 'payloads',
    summary: 'Issue a download URL (owner’s family, once UPLOADED)',
    request: { params: FILE_PARAMS },
    responds: 'application/json',
    handler: async (ctx) =>
      json(await files.downloadUrl(ctx.param('workflowId'), ctx.param('fileId'), originOf(ctx))),
  });
