/**
 * The embedded store when the disk fails, over the real local server: a write that cannot be made
 * durable (a full disk refusing the log append, or LevelDB refusing a batch) answers 503 with the
 * JSON error body, loses nothing acknowledged before it, and the store serves again once the disk
 * does, from what the disk holds. Faults are injected at the adapter's edge (the log append and
 * the LevelDB handle), as a full disk would raise them.
 */
import { cpSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { type LocalServer, startLocalServer } from '../../lib/runtime/local.ts';
import { createEmbeddedStores } from '../../lib/runtime/stores.ts';
import { EmbeddedDb, type LevelHandle } from '../../lib/store/embedded/database.ts';
import { embeddedDir } from '../helpers/embedded.ts';
import { jsonRequest } from '../helpers/server.ts';

const noSpace = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

interface Disk {
  /** The next log appends fail while true. */
  appendsFail: boolean;
  /** The next LevelDB batches fail while true. */
  batchesFail: boolean;
}

const servers: LocalServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function serverOn(dir: string, disk?: Disk): Promise<LocalServer> {
  const db = await EmbeddedDb.open(dir, {
    beforeAppend: () => {
      if (disk?.appendsFail) throw noSpace();
    },
    wrap: (level): LevelHandle =>
      new Proxy(level, {
        get(target, name) {
          if (name === 'batch') {
            return (...args: Parameters<LevelHandle['batch']>) =>
              disk?.batchesFail ? Promise.reject(noSpace()) : target.batch(...args);
          }
          const value = Reflect.get(target, name, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
  });
  const server = await startLocalServer(
    configOf({ 'service.server.port': 0, 'service.ui.dir': '', 'service.local.data-dir': dir }),
    { logger: silentLogger, stores: createEmbeddedStores(db) },
  );
  servers.push(server);
  return server;
}

const taskDef = (name: string) => [{ name, retryCount: 0, responseTimeoutSeconds: 60 }];

async function register(server: LocalServer, name: string): Promise<Response> {
  return fetch(`${server.url}/api/metadata/taskdefs`, jsonRequest('POST', taskDef(name)));
}

async function names(server: LocalServer): Promise<string[]> {
  const response = await fetch(`${server.url}/api/metadata/taskdefs`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { name: string }[]).map((d) => d.name).sort();
}

async function restart(dir: string, server: LocalServer): Promise<LocalServer> {
  servers.splice(servers.indexOf(server), 1);
  await server.close();
  return serverOn(dir);
}

describe('the embedded store on a failing disk', () => {
  it('answers 503 with the error body when the log cannot be written, and keeps what was acknowledged', async () => {
    const dir = embeddedDir();
    dirs.push(dir);
    const disk: Disk = { appendsFail: false, batchesFail: false };
    let server = await serverOn(dir, disk);
    expect((await register(server, 'before')).status).toBe(200);

    disk.appendsFail = true;
    const refused = await register(server, 'during');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await refused.json()) as { status: number; message: string };
    expect(body.status).toBe(503);
    expect(body.message).toMatch(/could not write to disk/);

    // The disk has room again: the store reads itself back from disk and serves.
    disk.appendsFail = false;
    expect((await register(server, 'after')).status).toBe(200);
    expect(await names(server)).toEqual(['after', 'before']);

    server = await restart(dir, server);
    expect(await names(server)).toEqual(['after', 'before']);
  });

  it('keeps logged writes when LevelDB refuses them, and writes them in once it can', async () => {
    const dir = embeddedDir();
    dirs.push(dir);
    const disk: Disk = { appendsFail: false, batchesFail: true };
    let server = await serverOn(dir, disk);
    // Acknowledged: in the log, though LevelDB refuses the batch that follows.
    expect((await register(server, 'logged')).status).toBe(200);
    // The background batch fails; until the store recovers, writes answer 503.
    await expect.poll(async () => (await register(server, 'refused')).status, { timeout: 5_000 }).toBe(503);
    disk.batchesFail = false;
    await expect.poll(async () => (await register(server, 'later')).status, { timeout: 5_000 }).toBe(200);
    expect(await names(server)).toContain('logged');

    server = await restart(dir, server);
    const stored = await names(server);
    expect(stored).toContain('logged');
    expect(stored).toContain('later');
  });

  it('reads back, after a crash, every write the log acknowledged but LevelDB never received', async () => {
    const dir = embeddedDir();
    dirs.push(dir);
    const disk: Disk = { appendsFail: false, batchesFail: true };
    const server = await serverOn(dir, disk);
    for (const name of ['one', 'two', 'three']) expect((await register(server, name)).status).toBe(200);
    // A crash now: LevelDB never got these writes. What a restart finds is the directory as it
    // is (copied, since this process still holds its LOCK).
    const copy = `${dir}-copy`;
    dirs.push(copy);
    cpSync(dir, copy, { recursive: true, filter: (source) => !source.endsWith('LOCK') });
    const after = await serverOn(copy);
    expect(await names(after)).toEqual(['one', 'three', 'two']);
    expect(server.url).toBeTruthy();
  });
});
