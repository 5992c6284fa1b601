/**
 * The S3 file backends over HTTP against an in-process S3-compatible server (test/helpers/s3.ts):
 * store-b with presigned PUT and GET and multipart (initiate, part URLs, complete with the part
 * ETags, abort), store-c with a single presigned PUT and no multipart (400). Bytes go straight
 * between the client and the store; the service checks the stored object on complete.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestS3, type TestS3 } from '../helpers/s3.ts';
import { errorBody, jsonRequest, startTestServer, type TestServer } from '../helpers/server.ts';
import { bytesOf, complete, createFile, startRun } from './files-rig.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

function useS3Server(store: 'store-b' | 'store-c') {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(
      {
        'service.file-storage.enabled': true,
        'service.file-storage.type': store,
        [`service.file-storage.${store}.endpoint`]: s3.endpoint,
        [`service.file-storage.${store}.bucket`]: s3.bucket,
        [`service.file-storage.${store}.path-style`]: true,
        [`service.file-storage.${store}.access-key-id`]: s3.accessKeyId,
        [`service.file-storage.${store}.secret-access-key`]: s3.secretAccessKey,
      },
      { transport: inject('transport') },
    );
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('server not started');
    return server;
  };
}

describe('store-b: S3-compatible with multipart', () => {
  const server = useS3Server('store-b');

  it('uploads and downloads through presigned URLs, recording size and hash on complete', async () => {
    const wf = await startRun(server());
    const file = await createFile(server(), wf, { contentType: 'text/csv' });
    expect(file.storageType).toBe('STORE_B');
    expect(file.uploadUrl.startsWith(`${s3.endpoint}/${s3.bucket}/files/${file.fileId}?`)).toBe(true);
    await errorBody(await complete(server(), wf, file.fileId), 400);
    const bytes = bytesOf(100_000, 13);
    expect((await fetch(file.uploadUrl, { method: 'PUT', body: bytes })).status).toBe(200);
    const done = await complete(server(), wf, file.fileId);
    expect(await done.json()).toMatchObject({ uploadStatus: 'UPLOADED', contentHash: sha256(bytes) });
    const meta = (await (await server().fetch(`${server().url}/api/files/${wf}/${file.fileId}`)).json()) as {
      fileSize: number;
    };
    expect(meta.fileSize).toBe(100_000);
    const link = await server().fetch(`${server().url}/api/files/${wf}/${file.fileId}/download-url`);
    const { downloadUrl } = (await link.json()) as { downloadUrl: string };
    const download = await fetch(downloadUrl);
    expect(download.headers.get('content-type')).toBe('text/csv');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('completes a multipart upload from presigned part URLs and the parts’ ETags', async () => {
    const wf = await startRun(server());
    const file = await createFile(server(), wf);
    const base = `${server().url}/api/files/${wf}/${file.fileId}/multipart`;
    const started = await server().fetch(base, { method: 'POST' });
    const { uploadId, fileHandleId } = (await started.json()) as { uploadId: string; fileHandleId: string };
    expect(fileHandleId).toBe(file.fileHandleId);
    const parts = [bytesOf(5 * 1024 * 1024, 3), bytesOf(5 * 1024 * 1024, 5), bytesOf(1000, 11)];
    const etags: string[] = [];
    for (const [i, part] of parts.entries()) {
      const issued = await server().fetch(`${base}/${encodeURIComponent(uploadId)}/part/${i + 1}`);
      const { uploadUrl } = (await issued.json()) as { uploadUrl: string };
      const sent = await fetch(uploadUrl, { method: 'PUT', body: part });
      expect(sent.status).toBe(200);
      etags.push(sent.headers.get('etag') as string);
    }
    const wrong = await server().fetch(
      `${base}/other-upload/complete`,
      jsonRequest('POST', { partETags: etags }),
    );
    await errorBody(wrong, 404);
    const done = await server().fetch(
      `${base}/${encodeURIComponent(uploadId)}/complete`,
      jsonRequest('POST', { partETags: etags }),
    );
    const whole = Buffer.concat(parts);
    expect(await done.json()).toEqual({
      fileHandleId: file.fileHandleId,
      uploadStatus: 'UPLOADED',
      contentHash: sha256(whole),
    });
    const meta = (await (await server().fetch(`${server().url}/api/files/${wf}/${file.fileId}`)).json()) as {
      fileSize: number;
    };
    expect(meta.fileSize).toBe(whole.length);
  });

  it('aborts a multipart upload: its parts are removed and its id is no longer open', async () => {
    const wf = await startRun(server());
    const file = await createFile(server(), wf);
    const base = `${server().url}/api/files/${wf}/${file.fileId}/multipart`;
    const { uploadId } = (await (await server().fetch(base, { method: 'POST' })).json()) as {
      uploadId: string;
    };
    const issued = await server().fetch(`${base}/${encodeURIComponent(uploadId)}/part/1`);
    const { uploadUrl } = (await issued.json()) as { uploadUrl: string };
    await fetch(uploadUrl, { method: 'PUT', body: bytesOf(1000, 3) });
    expect(s3.uploadExists(uploadId)).toBe(true);
    const aborted = await server().fetch(`${base}/${encodeURIComponent(uploadId)}`, { method: 'DELETE' });
    expect(aborted.status).toBe(204);
    expect(s3.uploadExists(uploadId)).toBe(false);
    await errorBody(await server().fetch(`${base}/${encodeURIComponent(uploadId)}/part/2`), 404);
    await errorBody(
      await server().fetch(`${base}/${encodeURIComponent(uploadId)}`, { method: 'DELETE' }),
      404,
    );
  });

  it('has no raw content routes (they serve the service backend only)', async () => {
    const wf = await startRun(server());
    const file = await createFile(server(), wf);
    await errorBody(await server().fetch(`${server().url}/api/files/content/${wf}/${file.fileId}`), 404);
  });
});

describe('store-c: S3-compatible, single PUT only', () => {
  const server = useS3Server('store-c');

  it('uploads with one presigned PUT and refuses multipart with 400', async () => {
    const wf = await startRun(server());
    const file = await createFile(server(), wf);
    expect(file.storageType).toBe('STORE_C');
    const multipart = await server().fetch(`${server().url}/api/files/${wf}/${file.fileId}/multipart`, {
      method: 'POST',
    });
    expect((await errorBody(multipart, 400)).message).toContain('Multipart upload is not supported');
    const bytes = bytesOf(5000, 17);
    expect((await fetch(file.uploadUrl, { method: 'PUT', body: bytes })).status).toBe(200);
    const done = await complete(server(), wf, file.fileId);
    expect(await done.json()).toMatchObject({ uploadStatus: 'UPLOADED', contentHash: sha256(bytes) });
  });
});
