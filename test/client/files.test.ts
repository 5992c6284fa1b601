/**
 * The worker file client against the local server (docs/api.md "File storage configuration" rule 5):
 * uploads from a path and from a stream, downloads that replace the destination only after a
 * complete response (a transfer cut off mid-stream leaves it untouched), multipart above the
 * threshold on an S3 backend, and errors that carry no URL.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileClient, FileClientError } from '../../lib/client/files.ts';
import { startTestS3, type TestS3 } from '../helpers/s3.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bytesOf, startRun } from '../http/files-rig.ts';

const work = mkdtempSync(join(tmpdir(), 'file-client-'));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('file client on the service backend', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      'service.file-storage.enabled': true,
      'service.file-storage.service.directory': mkdtempSync(join(tmpdir(), 'file-client-store-')),
      'service.file-storage.service.signing.enabled': true,
      'service.file-storage.service.signing.keys[0].id': 'k1',
      'service.file-storage.service.signing.keys[0].secret': 's1',
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('uploads a path and downloads it back byte for byte', async () => {
    const wf = await startRun(server);
    const client = new FileClient({ serverUrl: server.url, workflowId: wf });
    const source = join(work, 'source.bin');
    const bytes = bytesOf(300_000, 7);
    writeFileSync(source, bytes);
    const handle = await client.upload(source, { contentType: 'application/pdf' });
    expect(handle).toMatch(/^service:\/\/file\/[0-9a-f-]{36}$/);
    const meta = await (await fetch(`${server.url}/api/files/${wf}/${handle.slice(15)}`)).json();
    expect(meta).toMatchObject({
      fileName: 'source.bin',
      contentType: 'application/pdf',
      contentHash: sha(bytes),
    });
    const destination = join(work, 'copy.bin');
    await client.download(handle, destination);
    expect(readFileSync(destination).equals(bytes)).toBe(true);
  });

  it('buffers a stream to a temporary file before creating the record', async () => {
    const wf = await startRun(server);
    const client = new FileClient({ serverUrl: server.url, workflowId: wf });
    const chunks = [bytesOf(1000, 3), bytesOf(2000, 5), bytesOf(5, 9)];
    const handle = await client.upload(Readable.from(chunks), { fileName: 'streamed.bin' });
    const destination = join(work, 'streamed.bin');
    await client.download(handle, destination);
    expect(readFileSync(destination).equals(Buffer.concat(chunks))).toBe(true);
  });

  it('lets a descendant download its ancestor’s file and refuses a stranger with 403', async () => {
    const parent = await startRun(server);
    const child = await startRun(server, parent);
    const stranger = await startRun(server);
    const source = join(work, 'family.txt');
    writeFileSync(source, 'family only');
    const handle = await new FileClient({ serverUrl: server.url, workflowId: parent }).upload(source);
    await new FileClient({ serverUrl: server.url, workflowId: child }).download(handle, join(work, 'f.txt'));
    expect(readFileSync(join(work, 'f.txt'), 'utf8')).toBe('family only');
    const refused = new FileClient({ serverUrl: server.url, workflowId: stranger }).download(
      handle,
      join(work, 'x'),
    );
    await expect(refused).rejects.toMatchObject({ status: 403 });
  });

  describe('a download cut off mid-stream', () => {
    let proxy: Server;
    let proxyUrl: string;
    beforeAll(async () => {
      // Forwards everything to the server, but cuts content downloads after half their bytes.
      const upstream = new URL(server.url);
      proxy = createServer((req, res) => {
        const forwarded = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            const cut = req.url?.startsWith('/api/files/content/') && req.method === 'GET';
            if (!cut) {
              answer.pipe(res);
              return;
            }
            const half = Number(answer.headers['content-length']) / 2;
            let sent = 0;
            answer.on('data', (chunk: Buffer) => {
              if (sent >= half) return;
              res.write(chunk.subarray(0, Math.max(0, half - sent)));
              sent += chunk.length;
              if (sent >= half) setTimeout(() => res.destroy(), 20);
            });
          },
        );
        req.pipe(forwarded);
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    });

    it('leaves the destination untouched and no temporary file behind', async () => {
      const wf = await startRun(server);
      const source = join(work, 'big.bin');
      writeFileSync(source, bytesOf(2 * 1024 * 1024, 11));
      const handle = await new FileClient({ serverUrl: server.url, workflowId: wf }).upload(source);
      const dir = mkdtempSync(join(tmpdir(), 'cut-'));
      const destination = join(dir, 'target.bin');
      writeFileSync(destination, 'previous contents');
      const client = new FileClient({ serverUrl: proxyUrl, workflowId: wf });
      await expect(client.download(handle, destination)).rejects.toThrow();
      expect(readFileSync(destination, 'utf8')).toBe('previous contents');
      expect(readdirSync(dir)).toEqual(['target.bin']);
    });
  });

  it('reports server errors with status and message, never the URL', async () => {
    const wf = await startRun(server);
    const client = new FileClient({ serverUrl: server.url, workflowId: wf });
    const error = (await client
      .download('service://file/00000000-0000-4000-8000-000000000000', join(work, 'none'))
      .catch((e: unknown) => e)) as FileClientError;
    expect(error).toBeInstanceOf(FileClientError);
    expect(error.status).toBe(404);
    expect(error.message).not.toContain('sig=');
  });
});

describe('file client on an S3 backend with multipart', () => {
  let s3: TestS3;
  let server: TestServer;
  beforeAll(async () => {
    s3 = await startTestS3();
    server = await startTestServer({
      'service.file-storage.enabled': true,
      'service.file-storage.type': 'store-b',
      'service.file-storage.store-b.endpoint': s3.endpoint,
      'service.file-storage.store-b.bucket': s3.bucket,
      'service.file-storage.store-b.path-style': true,
      'service.file-storage.store-b.access-key-id': s3.accessKeyId,
      'service.file-storage.store-b.secret-access-key': s3.secretAccessKey,
    });
  });
  afterAll(async () => {
    await server.close();
    await s3.close();
  });

  it('uploads in parts above the threshold and in one PUT below it', async () => {
    const wf = await startRun(server);
    const paths: string[] = [];
    const client = new FileClient({
      serverUrl: server.url,
      workflowId: wf,
      multipartThreshold: 6 * 1024 * 1024,
      partSize: 5 * 1024 * 1024,
      fetch: (input, init) => {
        paths.push(new URL(String(input)).pathname);
        return fetch(input, init);
      },
    });
    const large = bytesOf(11 * 1024 * 1024 + 17, 3);
    const small = bytesOf(1000, 5);
    writeFileSync(join(work, 'large.bin'), large);
    writeFileSync(join(work, 'small.bin'), small);
    for (const [name, bytes] of [
      ['large.bin', large],
      ['small.bin', small],
    ] as const) {
      paths.length = 0;
      const handle = await client.upload(join(work, name));
      const parts = paths.filter((p) => /\/multipart\/[^/]+\/part\/\d+$/.test(p));
      expect(parts, name).toHaveLength(name === 'large.bin' ? 3 : 0);
      const meta = (await (await fetch(`${server.url}/api/files/${wf}/${handle.slice(15)}`)).json()) as {
        fileSize: number;
        contentHash: string;
      };
      expect(meta).toMatchObject({ fileSize: bytes.length, contentHash: sha(bytes) });
      await client.download(handle, join(work, `${name}.copy`));
      expect(readFileSync(join(work, `${name}.copy`)).equals(bytes)).toBe(true);
    }
  });
});
