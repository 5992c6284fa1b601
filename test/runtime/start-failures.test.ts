/**
 * `npm start` (lib/runtime/local-main.ts) as a person meets it, as a real process: a data directory
 * another server holds, a port already taken or a Node.js older than 22 stops the start with one
 * sentence naming the directory, the port or the version, and exit code 1 (no stack trace); a
 * configuration error with `Configuration error: ...` and exit code 2; an unknown `SERVICE_*`
 * variable is one warning line (or, under service.config.strict, a configuration error); a normal
 * start on the DynamoDB store prints no AWS SDK notice, and SIGTERM ends it with exit code 0.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { type LocalServer, startLocalServer } from '../../lib/runtime/local.ts';
import { EXIT_CODES } from '../../lib/runtime/start-errors.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** tsx's loader, as `--import` takes it from any working directory. */
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const scratch = mkdtempSync(join(tmpdir(), 'conductor-start-'));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Runs `npm start`'s command with only these service properties, from an empty directory; with
 * `stopWhenListening`, runs it in this Node with tsx's loader and sends SIGTERM once it says it
 * listens. Node's warnings are silenced unless
 * `warnings` (then an SDK notice would show on stderr).
 */
function start(
  env: Record<string, string>,
  options: { stopWhenListening?: boolean; warnings?: boolean } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('SERVICE_') && key !== 'PORT' && key !== 'NODE_NO_WARNINGS',
    ),
  );
  return new Promise((done, fail) => {
    // To stop it, signal the server's own process (tsx's wrapper would exit 143 on SIGTERM).
    const [command, args] = options.stopWhenListening
      ? [process.execPath, ['--import', TSX_LOADER, join(ROOT, 'lib/runtime/local-main.ts')]]
      : [join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'lib/runtime/local-main.ts')]];
    const child = spawn(command, args, {
      cwd: scratch,
      env: { ...clean, ...(options.warnings ? {} : { NODE_NO_WARNINGS: '1' }), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    // One SIGTERM: a second one finds no handler (the server listens for one) and kills it.
    let stopping = false;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // The Store line comes right after the listening line: both are written by then.
      if (options.stopWhenListening && !stopping && /^Store: /m.test(stdout)) {
        stopping = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A start that does not fail would serve forever: stop it, and let the assertions say so.
    const timer = setTimeout(() => child.kill('SIGTERM'), 45_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('npm start', () => {
  it('stops a configuration error with its message and exit code 2', async () => {
    const result = await start({ SERVICE_STORE: 'memory', SERVICE_SERVER_PORT: 'eighty' });
    expect(result.code).toBe(EXIT_CODES.configuration);
    expect(EXIT_CODES.configuration).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      "Configuration error: Property service.server.port must be an integer, got 'eighty'",
    ]);
    expect(result.stdout).toBe('');
  });

  it("stops a capability's own check of the configuration with exit code 2 too", async () => {
    const result = await start({
      SERVICE_STORE: 'memory',
      SERVICE_SERVER_PORT: '0',
      SERVICE_EXTERNAL_PAYLOAD_SWEEP_GRACE: '1h',
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'Configuration error: Property service.external-payload.sweep-grace must be at least 2h (the payload sweep must not reclaim a payload a run is being committed with), got 3600 s',
    ]);
  });

  it('refuses an unknown SERVICE_ variable under service.config.strict: exit code 2, naming the closest property', async () => {
    const result = await start({
      SERVICE_STORE: 'memory',
      SERVICE_SERVER_PORT: '0',
      SERVICE_CONFIG_STRICT: 'true',
      SERVICE_SCHEDULR_ENABLED: 'false',
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'Configuration error: Unknown environment variable SERVICE_SCHEDULR_ENABLED: no property is read from it; the closest is service.scheduler.enabled (SERVICE_SCHEDULER_ENABLED) (service.config.strict is on: fix or remove it)',
    ]);
  });

  it('starts on the DynamoDB store with no AWS SDK notice, warns of an unknown SERVICE_ variable, and exits 0 on SIGTERM', async () => {
    const result = await start(
      {
        SERVICE_STORE: 'dynamodb',
        SERVICE_SERVER_PORT: '0',
        SERVICE_LOCAL_DATA_DIR: join(scratch, 'dynamodb-data'),
        SERVICE_SCHEDULR_ENABLED: 'false',
      },
      { stopWhenListening: true, warnings: true },
    );
    expect(result.code).toBe(EXIT_CODES.stopped);
    expect(result.stdout).toMatch(/^Conductor-compatible service listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(result.stdout).toContain('SIGTERM received, shutting down');
    const stderr = result.stderr.trim().split('\n');
    expect(stderr[0]).toBe(
      'Configuration warning: Unknown environment variable SERVICE_SCHEDULR_ENABLED: no property is read from it; the closest is service.scheduler.enabled (SERVICE_SCHEDULER_ENABLED)',
    );
    // The rest is the service's own log (the local DynamoDB starting): no Node or AWS SDK warning.
    for (const line of stderr.slice(1)) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\S+ (INFO|DEBUG) /);
    expect(stderr.slice(1).join('\n')).not.toMatch(
      /Warning|AWS SDK|NodeDeprecation|maintenance mode|end of support/i,
    );
  });

  describe('on a data directory another server holds', () => {
    const dataDir = join(scratch, 'held-data');
    let holder: LocalServer;

    beforeAll(async () => {
      holder = await startLocalServer(
        configOf({ 'service.local.data-dir': dataDir, 'service.server.port': 0 }),
        { logger: silentLogger },
      );
    });

    afterAll(async () => {
      await holder.close();
    });

    it('stops with one sentence naming the directory, and exit code 1', async () => {
      const result = await start({ SERVICE_LOCAL_DATA_DIR: dataDir, SERVICE_SERVER_PORT: '0' });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        `The data directory ${dataDir} is already in use by another server: stop that server, or set service.local.data-dir to another directory.`,
      ]);
      // The holder is unharmed.
      expect((await fetch(`${holder.url}/api/health`)).status).toBe(200);
    });
  });

  it('refuses a data directory that holds only the earlier default store, naming what to do', async () => {
    const dataDir = join(scratch, 'dynalite-data');
    mkdirSync(join(dataDir, 'dynamodb'), { recursive: true });
    writeFileSync(join(dataDir, 'dynamodb', 'CURRENT'), 'MANIFEST-000002\n');
    const result = await start({ SERVICE_LOCAL_DATA_DIR: dataDir, SERVICE_SERVER_PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `The data directory ${dataDir} holds data of the earlier default store (dynalite, in ${join(dataDir, 'dynamodb')}), which the embedded store does not read: start with SERVICE_STORE=dynamodb (service.store=dynamodb) to keep using it, or set service.local.data-dir to another directory to start empty.`,
    ]);
    // Nothing was created beside it.
    expect(existsSync(join(dataDir, 'embedded'))).toBe(false);
  });

  it('stops with one sentence and exit code 1 on a damaged embedded store', async () => {
    const dataDir = join(scratch, 'damaged-data');
    mkdirSync(join(dataDir, 'embedded', 'level'), { recursive: true });
    writeFileSync(join(dataDir, 'embedded', 'level', 'CURRENT'), 'not a manifest name');
    const result = await start({ SERVICE_LOCAL_DATA_DIR: dataDir, SERVICE_SERVER_PORT: '0' });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^The embedded store in ${join(dataDir, 'embedded')} cannot be opened \\(.*Corruption.*\\): restore it from a backup, or set service.local.data-dir to another directory to start empty\\.$`,
      ),
    );
  });

  it('refuses a Node.js older than 22 with one sentence and exit code 1', async () => {
    // A preload that makes the process report Node 20, as a machine's own older Node would.
    const preload = join(scratch, 'node-20.mjs');
    writeFileSync(preload, "Object.defineProperty(process, 'version', { value: 'v20.20.2' });\n");
    const result = await start({
      SERVICE_STORE: 'memory',
      SERVICE_SERVER_PORT: '0',
      NODE_OPTIONS: `--import=${preload}`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      "Node.js v20.20.2 is too old: the service needs Node.js 22 or newer. Run npm ci, which installs the project's own Node.js 22 for npm's scripts, then npm start; or install Node.js 22 or newer.",
    ]);
    expect(result.stdout).toBe('');
  });

  describe('on a port already taken', () => {
    let taken: Server;
    let port: number;

    beforeAll(async () => {
      taken = createServer();
      await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
      port = (taken.address() as { port: number }).port;
    });

    afterAll(async () => {
      await new Promise((done) => taken.close(done));
    });

    it('stops with one sentence naming the port, and exit code 1', async () => {
      const result = await start({ SERVICE_STORE: 'memory', SERVICE_SERVER_PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        `Port ${port} on 127.0.0.1 is already in use: stop the process using it, or set service.server.port (or PORT) to another port.`,
      ]);
    });
  });
});
