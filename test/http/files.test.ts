/**
 * The file API over HTTP with the `service` backend (docs/api.md "File API", "File upload status",
 * "Errors"): the gate, create, upload, complete, metadata, download, their error answers, the
 * size limit, and hostile ids that must never reach outside the directory.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorBody, jsonRequest, useTestServer } from '../helpers/server.ts';
import { complete, createFile, put, startRun, uploadedFile } from './files-rig.ts';

// One level below a private directory, so that anything escaping it would show in its parent.
const directory = join(mkdtempSync(join(tmpdir(), 'files-test-')), 'files');
const ON = {
  'service.file-storage.enabled': true,
  'service.file-storage.service.directory': directory,
  'service.file-storage.service.max-size': 64 * 1024,
};

describe('file API gate', () => {
  const server = useTestServer();

  it('answers 404 with the error body on every file route while file storage is off', async () => {
    const body = await errorBody(
      await server.fetch(`${server.url}/api/files`, jsonRequest('POST', { workflowId: 'x' })),
      404,
    );
    expect(body.message).toContain('/api/files');
    await errorBody(
      await server.fetch(`${server.url}/api/files/content/w/f`, { method: 'PUT', body: 'x' }),
      404,
    );
  });
});

describe('file API on the service backend', () => {
  const server = useTestServer(ON);

  it('creates a record owned by the workflow, UPLOADING, with an upload URL on the content route', async () => {
    const workflowId = await startRun(server);
    const before = Date.now();
    const response = await server.fetch(
      `${server.url}/api/files`,
      jsonRequest('POST', { workflowId, taskId: 't1', fileName: 'report.csv', contentType: 'text/csv' }),
    );
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    const fileId = String(body.fileHandleId).replace('service://file/', '');
    expect(body.fileHandleId).toMatch(/^service:\/\/file\/[0-9a-f-]{36}$/);
    expect(body).toMatchObject({
      fileName: 'report.csv',
      contentType: 'text/csv',
      storageType: 'SERVICE',
      uploadStatus: 'UPLOADING',
      uploadUrl: `${server.url}/api/files/content/${workflowId}/${fileId}`,
    });
    expect(body.createdAt).toBeGreaterThanOrEqual(before);
    expect(body.uploadUrlExpiresAt).toBeGreaterThanOrEqual(Number(body.createdAt) + 3_600_000);
  });

  it('stores the bytes, records their size and SHA-256 on complete, and serves them back', async () => {
    const workflowId = await startRun(server);
    const bytes = new Uint8Array(40_000).map((_, i) => (i * 31) % 256);
    const file = await createFile(server, workflowId, { fileName: 'data.bin', contentType: 'image/png' });
    expect((await put(server, file.uploadUrl, bytes)).status).toBe(204);
    const done = await complete(server, workflowId, file.fileId);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(await done.json()).toEqual({
      fileHandleId: file.fileHandleId,
      uploadStatus: 'UPLOADED',
      contentHash: sha256,
    });

    const meta = await server.fetch(`${server.url}/api/files/${workflowId}/${file.fileId}`);
    expect(await meta.json()).toMatchObject({
      fileHandleId: file.fileHandleId,
      fileName: 'data.bin',
      contentType: 'image/png',
      fileSize: 40_000,
      contentHash: sha256,
      storageType: 'SERVICE',
      uploadStatus: 'UPLOADED',
      workflowId,
    });

    const link = await server.fetch(`${server.url}/api/files/${workflowId}/${file.fileId}/download-url`);
    const { downloadUrl, expiresAt, fileHandleId } = (await link.json()) as {
      downloadUrl: string;
      expiresAt: number;
      fileHandleId: string;
    };
    expect(fileHandleId).toBe(file.fileHandleId);
    expect(Number(expiresAt)).toBeGreaterThan(Date.now());
    const download = await server.fetch(downloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-length')).toBe('40000');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });

  it('refreshes the upload URL for the owner while UPLOADING, and refuses it after (409)', async () => {
    const workflowId = await startRun(server);
    const file = await createFile(server, workflowId);
    const refreshed = await server.fetch(`${server.url}/api/files/${workflowId}/${file.fileId}/upload-url`);
    expect(refreshed.status).toBe(200);
    expect(await refreshed.json()).toMatchObject({
      fileHandleId: file.fileHandleId,
      uploadUrl: file.uploadUrl,
    });
    await put(server, file.uploadUrl, 'abc');
    await complete(server, workflowId, file.fileId);
    const late = await server.fetch(`${server.url}/api/files/${workflowId}/${file.fileId}/upload-url`);
    expect((await errorBody(late, 409)).message).toContain('UPLOADED');
  });

  it('answers 400 for a download, or a download URL, before the upload is complete', async () => {
    const workflowId = await startRun(server);
    const file = await createFile(server, workflowId);
    await put(server, file.uploadUrl, 'not yet');
    const url = await server.fetch(`${server.url}/api/files/${workflowId}/${file.fileId}/download-url`);
    expect((await errorBody(url, 400)).message).toContain('UPLOADING');
    await errorBody(await server.fetch(file.uploadUrl), 400);
  });

  it('answers 400 to a complete with nothing uploaded, 409 to a second complete and to an upload after it', async () => {
    const workflowId = await startRun(server);
    const file = await createFile(server, workflowId);
    expect((await errorBody(await complete(server, workflowId, file.fileId), 400)).message).toContain(
      'no uploaded content',
    );
    await put(server, file.uploadUrl, 'first');
    expect((await complete(server, workflowId, file.fileId)).status).toBe(200);
    expect((await errorBody(await complete(server, workflowId, file.fileId), 409)).message).toContain(
      'UPLOADED',
    );
    await errorBody(await put(server, file.uploadUrl, 'second'), 409);
    const download = await server.fetch(file.uploadUrl);
    expect(await download.text()).toBe('first');
  });

  it('lets exactly one of concurrent completes win; the others answer 409', async () => {
    const workflowId = await startRun(server);
    const file = await createFile(server, workflowId);
    await put(server, file.uploadUrl, 'raced');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => complete(server, workflowId, file.fileId)),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
  });

  it('answers 400 to multipart on the service backend, which has none', async () => {
    const workflowId = await startRun(server);
    const file = await createFile(server, workflowId);
    const response = await server.fetch(`${server.url}/api/files/${workflowId}/${file.fileId}/multipart`, {
      method: 'POST',
    });
    expect((await errorBody(response, 400)).message).toContain('Multipart upload is not supported');
  });

  it('refuses an upload over max-size with 413 and leaves no partial object', async () => {
    const workflowId = await startRun(server);
    const file = await createFile(server, workflowId);
    const response = await put(server, file.uploadUrl, new Uint8Array(64 * 1024 + 1));
    expect((await errorBody(response, 413)).message).toContain('max-size');
    const left = existsSync(directory) ? readdirSync(directory) : [];
    expect(left.filter((name) => name.startsWith(file.fileId))).toEqual([]);
    await errorBody(await complete(server, workflowId, file.fileId), 400);
  });

  it('refuses a chunked upload without Content-Length once it passes max-size, removing the partial object', async () => {
    const workflowId = await startRun(server);
    const file = await createFile(server, workflowId);
    const chunk = new Uint8Array(16 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8) controller.close();
        else controller.enqueue(chunk);
        sent += 1;
      },
    });
    const response = await server.fetch(file.uploadUrl, {
      method: 'PUT',
      body,
      duplex: 'half',
    } as RequestInit);
    await errorBody(response, 413);
    const left = existsSync(directory) ? readdirSync(directory) : [];
    expect(left.filter((name) => name.startsWith(file.fileId))).toEqual([]);
  });

  describe('bad input', () => {
    it('answers 400 without workflowId, with wrong types, malformed JSON or no body', async () => {
      const post = (body: unknown) => server.fetch(`${server.url}/api/files`, jsonRequest('POST', body));
      expect((await errorBody(await post({ fileName: 'a' }), 400)).message).toContain('workflowId');
      expect((await errorBody(await post({ workflowId: 7 }), 400)).message).toContain('workflowId');
      const wf = await startRun(server);
      await errorBody(await post({ workflowId: wf, fileName: ['a'] }), 400);
      await errorBody(await post({ workflowId: wf, contentType: 'text/plain\r\nx-evil: 1' }), 400);
      await errorBody(await post('{"workflowId": '), 400);
      await errorBody(await post(undefined), 400);
      await errorBody(await post([]), 400);
    });

    it('answers 404 to a create for a workflow that does not exist', async () => {
      const response = await server.fetch(
        `${server.url}/api/files`,
        jsonRequest('POST', { workflowId: 'nope' }),
      );
      expect((await errorBody(response, 404)).message).toContain('nope');
    });

    it('answers 413 to a huge create body', async () => {
      const response = await server.fetch(
        `${server.url}/api/files`,
        jsonRequest('POST', { workflowId: 'x', fileName: 'a'.repeat(7 * 1024 * 1024) }),
      );
      await errorBody(response, 413);
    });

    it('answers 404 to an unknown file on every route', async () => {
      const wf = await startRun(server);
      const unknown = '00000000-0000-4000-8000-000000000000';
      for (const [method, path] of [
        ['GET', `/api/files/${wf}/${unknown}`],
        ['GET', `/api/files/${wf}/${unknown}/upload-url`],
        ['GET', `/api/files/${wf}/${unknown}/download-url`],
        ['POST', `/api/files/${wf}/${unknown}/upload-complete`],
        ['POST', `/api/files/${wf}/${unknown}/multipart`],
        ['GET', `/api/files/content/${wf}/${unknown}`],
        ['PUT', `/api/files/content/${wf}/${unknown}`],
      ] as const) {
        const response = await server.fetch(`${server.url}${path}`, {
          method,
          body: method === 'PUT' ? 'x' : undefined,
        });
        expect((await errorBody(response, 404)).message, `${method} ${path}`).toContain(unknown);
      }
    });

    it('answers 4xx to ids with .. or encoded slashes and writes nothing outside the directory', async () => {
      const wf = await startRun(server);
      const file = await createFile(server, wf);
      const parent = join(directory, '..');
      await put(server, file.uploadUrl, 'inside');
      const before = readdirSync(parent);
      expect(before).toEqual(['files']);
      for (const id of [
        '..',
        '..%2F..%2Fetc%2Fpasswd',
        `${file.fileId}%2F..`,
        '%2e%2e',
        `..%2F${file.fileId}`,
      ]) {
        for (const method of ['PUT', 'GET'] as const) {
          const response = await server.fetch(`${server.url}/api/files/content/${wf}/${id}`, {
            method,
            body: method === 'PUT' ? 'escape' : undefined,
          });
          expect(response.status, `${method} ${id}`).toBeGreaterThanOrEqual(400);
          expect(response.status, `${method} ${id}`).toBeLessThan(500);
        }
        const meta = await server.fetch(`${server.url}/api/files/${wf}/${id}`);
        expect(meta.status).toBeGreaterThanOrEqual(400);
        expect(meta.status).toBeLessThan(500);
      }
      expect(readdirSync(parent)).toEqual(before);
      expect(readdirSync(directory).some((name) => name.includes('..'))).toBe(false);
    });

    it('answers 400 to a part number out of range and to a complete without partETags', async () => {
      const wf = await startRun(server);
      const file = await createFile(server, wf);
      await errorBody(
        await server.fetch(`${server.url}/api/files/${wf}/${file.fileId}/multipart/u1/part/0`),
        400,
      );
      await errorBody(
        await server.fetch(`${server.url}/api/files/${wf}/${file.fileId}/multipart/u1/part/10001`),
        400,
      );
      await errorBody(
        await server.fetch(
          `${server.url}/api/files/${wf}/${file.fileId}/multipart/u1/complete`,
          jsonRequest('POST', {}),
        ),
        400,
      );
      await errorBody(
        await server.fetch(
          `${server.url}/api/files/${wf}/${file.fileId}/multipart/u1/complete`,
          jsonRequest('POST', { partETags: 'x' }),
        ),
        400,
      );
    });
  });

  it('builds content URLs from X-Forwarded-Proto and X-Forwarded-Host', async () => {
    const workflowId = await startRun(server);
    const response = await server.fetch(`${server.url}/api/files`, {
      ...jsonRequest('POST', { workflowId }),
      headers: {
        'content-type': 'application/json',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'files.example.com',
      },
    });
    const { uploadUrl } = (await response.json()) as { uploadUrl: string };
    expect(uploadUrl.startsWith(`https://files.example.com/api/files/content/${workflowId}/`)).toBe(true);
  });

  it('serves files uploaded as text unchanged', async () => {
    const workflowId = await startRun(server);
    const file = await uploadedFile(server, workflowId, '{"a": "é"}', { contentType: 'application/json' });
    const download = await server.fetch(file.uploadUrl);
    expect(download.headers.get('content-type')).toBe('application/json');
    expect(await download.text()).toBe('{"a": "é"}');
  });
});

describe('file API with a base URL', () => {
  const server = useTestServer({
    ...ON,
    'service.file-storage.service.base-url': 'https://cdn.example.com/',
  });

  it('builds content URLs from service.file-storage.service.base-url', async () => {
    const workflowId = await startRun(server);
    const file = await createFile(server, workflowId);
    expect(file.uploadUrl).toBe(`https://cdn.example.com/api/files/content/${workflowId}/${file.fileId}`);
  });
});
