/**
 * The payload store adapters against one contract (put, get, a missing key), and the S3 adapter's
 * presigned URLs against an in-process S3-compatible server (s3rver: it checks the access key and
 * expiry, not SigV4 signatures).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilesystemPayloadStore } from '../../lib/payloads/filesystem.ts';
import { contentKey, PAYLOAD_PREFIX, uploadKey } from '../../lib/payloads/keys.ts';
import { MemoryPayloadStore } from '../../lib/payloads/memory.ts';
import type { PayloadStore } from '../../lib/payloads/ports.ts';
import { S3PayloadStore } from '../../lib/payloads/s3.ts';
import { type LocalS3rver, startS3rver } from '../helpers/s3.ts';
import { useTempDirs } from '../helpers/temp.ts';

const BUCKET = 'payload-tests';
const tempDir = useTempDirs();

let s3: LocalS3rver;
let client: S3Client;
let endpoint: string;

beforeAll(async () => {
  s3 = await startS3rver({ resetOnClose: true, configureBuckets: [{ name: BUCKET }] });
  ({ client, endpoint } = s3);
});

afterAll(async () => {
  await s3.close();
});

describe.each<[string, () => PayloadStore]>([
  ['memory', () => new MemoryPayloadStore()],
  ['filesystem', () => new FilesystemPayloadStore(tempDir('payloads-'))],
  ['S3 (s3rver)', () => new S3PayloadStore(client, BUCKET)],
])('the %s payload store', (_name, create) => {
  it('stores a document and reads it back byte for byte, 2 MB included', async () => {
    const store = create();
    const json = JSON.stringify({ blob: 'é'.repeat(1024 * 1024), n: 1 });
    const key = contentKey(json);
    await store.put(key, json);
    expect(await store.get(key)).toBe(json);
  });

  it('replaces a document under an upload key', async () => {
    const store = create();
    const key = uploadKey('TASK_OUTPUT');
    await store.put(key, '{"v":1}');
    await store.put(key, '{"v":2}');
    expect(await store.get(key)).toBe('{"v":2}');
  });

  it('answers undefined for a key never written', async () => {
    expect(await create().get(uploadKey('WORKFLOW_INPUT'))).toBeUndefined();
  });
});

describe('the filesystem payload store', () => {
  it('refuses a path that is no payload key, and leaves no temporary files behind', async () => {
    const dir = tempDir('payloads-');
    const store = new FilesystemPayloadStore(dir);
    await expect(store.put('../escape.json', '{}')).rejects.toThrow('Not a payload key');
    await expect(store.get('sha256/../../etc/passwd')).rejects.toThrow('Not a payload key');
    await store.put(contentKey('{}'), '{}');
    expect(readdirSync(join(dir, 'sha256'))).toEqual([contentKey('{}').slice('sha256/'.length)]);
  });
});

describe('the S3 payload store', () => {
  it('keeps payloads under the granted prefix', async () => {
    const store = new S3PayloadStore(client, BUCKET);
    const key = uploadKey('TASK_INPUT');
    await store.put(key, '{"a":1}');
    const listing = await (await fetch(`${endpoint}/${BUCKET}?prefix=${PAYLOAD_PREFIX}`)).text();
    expect(listing).toContain(`<Key>${PAYLOAD_PREFIX}${key}</Key>`);
  });

  it('hands out presigned URLs: PUT uploads, GET downloads', async () => {
    const store = new S3PayloadStore(client, BUCKET);
    const key = uploadKey('TASK_OUTPUT');
    const write = await store.presign(key, 'WRITE', 60);
    expect(write).toContain(`/${BUCKET}/${PAYLOAD_PREFIX}${key}?`);
    expect(write).toContain('X-Amz-Expires=60');
    const body = JSON.stringify({ uploaded: 'z'.repeat(200_000) });
    const put = await fetch(write, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });
    expect(put.status, await put.text()).toBe(200);
    expect(await store.get(key)).toBe(body);

    const read = await store.presign(key, 'READ', 60);
    const got = await fetch(read);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe(body);
  });
});
