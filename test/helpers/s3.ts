/**
 * An in-process S3-compatible server for tests: s3rver 3.7.1, the
 * maintained npm one that runs on Node 22 here. It lacks AbortMultipartUpload, so its middleware is
 * wrapped: `DELETE /<bucket>/<key>?uploadId=...` removes the upload's parts directory (204) or
 * answers NoSuchUpload (404), as S3 does; everything else passes through. It does not check SigV4
 * signatures (expiry and the access key it does), so tests cannot catch signing mistakes with it.
 *
 * startS3rver is s3rver as it comes (no wrapper) on a loopback port, with an S3 client for it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** Credentials s3rver accepts. */
  accessKeyId: string;
  secretAccessKey: string;
  /** Open multipart uploads' part directories (to check an abort removed its parts). */
  uploadExists(uploadId: string): boolean;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'files'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket }] });
  await s3rver.configureBuckets();
  const middleware = s3rver.getMiddleware();
  const uploadsDir = join(directory, bucket, '._S3rver_uploads');
  const partsOf = (uploadId: string) => join(uploadsDir, uploadId.replace(/[/\\.]/g, '_'));
  // An aborted upload is gone at once for every reader here; its directory is removed a moment
  // later, because s3rver may still be finishing a part's files after it answered the part's PUT
  // (removing them under it fails with an ENOENT that nothing catches).
  const aborted = new Set<string>();
  const removals = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const uploadId = url.searchParams.get('uploadId');
    if (req.method === 'DELETE' && uploadId !== null) {
      const dir = partsOf(uploadId);
      if (aborted.has(uploadId) || !existsSync(dir)) {
        res.writeHead(404, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code></Error>');
        return;
      }
      aborted.add(uploadId);
      const removal = setTimeout(() => {
        removals.delete(removal);
        rmSync(dir, { recursive: true, force: true });
      }, 500);
      removals.add(removal);
      res.writeHead(204);
      res.end();
      return;
    }
    middleware(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    uploadExists: (uploadId) => !aborted.has(uploadId) && existsSync(partsOf(uploadId)),
    async close() {
      for (const removal of removals) clearTimeout(removal);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** An S3 client for an s3rver at `endpoint`: path-style, with the credentials s3rver accepts. */
export function s3rverClient(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
}

export interface LocalS3rver {
  endpoint: string;
  client: S3Client;
  /** Destroys the client, stops s3rver and removes its directory. */
  close(): Promise<void>;
}

/** s3rver on a loopback port in a temporary directory; `options` go to s3rver as they are. */
export async function startS3rver(
  options: { resetOnClose?: boolean; configureBuckets?: { name: string }[] } = {},
): Promise<LocalS3rver> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, ...options });
  const { port } = await s3rver.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = s3rverClient(endpoint);
  return {
    endpoint,
    client,
    async close() {
      client.destroy();
      await s3rver.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
