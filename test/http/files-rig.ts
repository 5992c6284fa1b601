/**
 * What the file API tests share: runs to own files (started through the real starter, children
 * with the parent link a SUB_WORKFLOW task gives them), and the create / upload / complete steps.
 */
import { expect } from 'vitest';
import { workflowDef } from '../helpers/fixtures.ts';
import { jsonRequest, type TestServer } from '../helpers/server.ts';

/** Starts a run (a child of `parent` when given) and answers its id. */
export async function startRun(server: TestServer, parent?: string): Promise<string> {
  const def = workflowDef();
  return server.server.services.engine.starter.start({
    name: String(def.name),
    workflowDef: def,
    parentWorkflowId: parent,
  });
}

export interface CreatedFile {
  fileHandleId: string;
  fileId: string;
  uploadUrl: string;
  uploadUrlExpiresAt: number;
  storageType: string;
  uploadStatus: string;
  fileName: string;
  contentType: string;
  createdAt: number;
}

export async function createFile(
  server: TestServer,
  workflowId: string,
  extra: Record<string, unknown> = {},
): Promise<CreatedFile> {
  const response = await server.fetch(
    `${server.url}/api/files`,
    jsonRequest('POST', { workflowId, ...extra }),
  );
  expect(response.status).toBe(201);
  const body = (await response.json()) as Omit<CreatedFile, 'fileId'>;
  return { ...body, fileId: body.fileHandleId.replace('service://file/', '') };
}

export function put(
  server: TestServer,
  url: string,
  bytes: Uint8Array | string,
  contentType = 'application/octet-stream',
) {
  return server.fetch(url, {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: typeof bytes === 'string' ? bytes : new Uint8Array(bytes),
  });
}

export function complete(server: TestServer, workflowId: string, fileId: string) {
  return server.fetch(`${server.url}/api/files/${workflowId}/${fileId}/upload-complete`, { method: 'POST' });
}

/** Creates, uploads and completes a file; answers it. */
export async function uploadedFile(
  server: TestServer,
  workflowId: string,
  bytes: Uint8Array | string,
  extra: Record<string, unknown> = {},
): Promise<CreatedFile> {
  const file = await createFile(server, workflowId, extra);
  expect((await put(server, file.uploadUrl, bytes)).status).toBe(204);
  expect((await complete(server, workflowId, file.fileId)).status).toBe(200);
  return file;
}

/**
 * Test bytes, cheap to build (large ones made byte by byte take seconds on a loaded machine, long
 * enough for kept-alive connections to time out between requests); `seed` varies the content.
 */
export function bytesOf(size: number, seed: number): Buffer<ArrayBuffer> {
  const bytes = Buffer.alloc(size, seed);
  for (let i = 0; i < size; i += 4093) bytes[i] = (i / 4093 + seed) % 256;
  return bytes;
}
