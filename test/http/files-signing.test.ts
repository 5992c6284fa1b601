/**
 * Signed content URLs (docs/api.md "Authentication" 3, "File storage configuration" rules 2-4): a
 * tampered, expired or unknown-key signature is 403, a URL used for the other operation 405, keys
 * rotate (the first signs, all verify), and no signature ever shows in a log line or error body.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentPath } from '../../lib/files/backends/directory.ts';
import { UrlSigner } from '../../lib/files/signing.ts';
import { createLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';
import { complete, createFile, put, startRun, uploadedFile } from './files-rig.ts';

const KEYS = 'service.file-storage.service.signing.keys';
const clock = new ManualClock(Date.now());
const logs: string[] = [];
const logger = createLogger({ level: 'debug', format: 'json', write: (line) => logs.push(line) });

const server = useTestServer(
  {
    'service.file-storage.enabled': true,
    'service.file-storage.service.directory': mkdtempSync(join(tmpdir(), 'files-signing-')),
    'service.file-storage.service.signing.enabled': true,
    'service.file-storage.signed-url-expiration': 60,
    [`${KEYS}[0].id`]: 'new',
    [`${KEYS}[0].secret`]: 'new-secret',
    [`${KEYS}[1].id`]: 'old',
    [`${KEYS}[1].secret`]: 'old-secret',
  },
  { clock, logger },
);

const withParam = (url: string, name: string, value: string) => {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
};

describe('signed content URLs', () => {
  it('issues URLs signed with the first key that work for their operation', async () => {
    const wf = await startRun(server);
    const file = await createFile(server, wf);
    const url = new URL(file.uploadUrl);
    expect([...url.searchParams.keys()].sort()).toEqual(['exp', 'kid', 'op', 'sig']);
    expect(url.searchParams.get('op')).toBe('upload');
    expect(url.searchParams.get('kid')).toBe('new');
    expect(Number(url.searchParams.get('exp')) * 1000).toBeLessThanOrEqual(clock.now() + 60_000);
    expect((await put(server, file.uploadUrl, 'signed')).status).toBe(204);
    expect((await complete(server, wf, file.fileId)).status).toBe(200);
    const link = await server.fetch(`${server.url}/api/files/${wf}/${file.fileId}/download-url`);
    const { downloadUrl } = (await link.json()) as { downloadUrl: string };
    expect(new URL(downloadUrl).searchParams.get('op')).toBe('download');
    expect(await (await server.fetch(downloadUrl)).text()).toBe('signed');
  });

  it('refuses an unsigned content URL with 403', async () => {
    const wf = await startRun(server);
    const file = await createFile(server, wf);
    const bare = file.uploadUrl.split('?')[0] as string;
    await errorBody(await put(server, bare, 'x'), 403);
  });

  it('refuses a tampered signature, expiry, operation or unknown key with 403', async () => {
    const wf = await startRun(server);
    const file = await createFile(server, wf);
    const sig = new URL(file.uploadUrl).searchParams.get('sig') as string;
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    const exp = Number(new URL(file.uploadUrl).searchParams.get('exp'));
    for (const url of [
      withParam(file.uploadUrl, 'sig', flipped),
      withParam(file.uploadUrl, 'sig', 'short'),
      withParam(file.uploadUrl, 'exp', String(exp + 3600)),
      withParam(file.uploadUrl, 'kid', 'unknown'),
      withParam(file.uploadUrl, 'op', 'download'),
      file.uploadUrl.replace(file.fileId, '00000000-0000-4000-8000-000000000000'),
    ]) {
      await errorBody(await put(server, url, 'x'), 403);
    }
  });

  it('refuses an expired URL with 403', async () => {
    const wf = await startRun(server);
    const file = await createFile(server, wf);
    clock.advance(61_000);
    expect((await errorBody(await put(server, file.uploadUrl, 'late'), 403)).message).toContain('expired');
    const refreshed = await server.fetch(`${server.url}/api/files/${wf}/${file.fileId}/upload-url`);
    const { uploadUrl } = (await refreshed.json()) as { uploadUrl: string };
    expect((await put(server, uploadUrl, 'in time')).status).toBe(204);
  });

  it('answers 405 to a valid URL used for the other operation', async () => {
    const wf = await startRun(server);
    const file = await createFile(server, wf);
    await errorBody(await server.fetch(file.uploadUrl), 405);
    await put(server, file.uploadUrl, 'bytes');
    await complete(server, wf, file.fileId);
    const link = await server.fetch(`${server.url}/api/files/${wf}/${file.fileId}/download-url`);
    const { downloadUrl } = (await link.json()) as { downloadUrl: string };
    await errorBody(await put(server, downloadUrl, 'overwrite'), 405);
  });

  it('accepts URLs signed with an older key still configured (rotation)', async () => {
    const wf = await startRun(server);
    const file = await createFile(server, wf);
    const old = new UrlSigner([{ id: 'old', secret: 'old-secret' }]);
    const query = old.sign('upload', contentPath(wf, file.fileId), clock.now() + 30_000);
    const url = `${file.uploadUrl.split('?')[0]}?${query.toString()}`;
    expect((await put(server, url, 'rotated')).status).toBe(204);
    const retired = new UrlSigner([{ id: 'retired', secret: 'retired-secret' }]);
    const stale = retired.sign('upload', contentPath(wf, file.fileId), clock.now() + 30_000);
    await errorBody(await put(server, `${file.uploadUrl.split('?')[0]}?${stale.toString()}`, 'x'), 403);
  });

  it('never writes a signature into a log line or an error body', async () => {
    logs.length = 0;
    const wf = await startRun(server);
    const other = await startRun(server);
    const file = await uploadedFile(server, wf, 'secret bytes');
    const link = await server.fetch(`${server.url}/api/files/${wf}/${file.fileId}/download-url`);
    const { downloadUrl } = (await link.json()) as { downloadUrl: string };
    const signatures = [file.uploadUrl, downloadUrl].map((u) => new URL(u).searchParams.get('sig') as string);
    const failures = [
      await put(server, file.uploadUrl, 'again'),
      await server.fetch(file.uploadUrl),
      await put(server, downloadUrl, 'x'),
      await server.fetch(downloadUrl.replace(`/${wf}/`, `/${other}/`)),
      await server.fetch(withParam(downloadUrl, 'exp', '1')),
      await server.fetch(downloadUrl.replace(file.fileId, 'not-a-file-id')),
    ];
    const bodies: string[] = [];
    for (const [i, response] of failures.entries()) {
      expect(response.status, `failure ${i}`).toBeGreaterThanOrEqual(400);
      bodies.push(await response.text());
    }
    expect(logs.length).toBeGreaterThan(0);
    for (const sig of signatures) {
      for (const line of logs) expect(line).not.toContain(sig);
      for (const body of bodies) expect(body).not.toContain(sig);
    }
  });
});
