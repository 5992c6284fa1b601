// The QuickJS script worker really ships with the functions that ask for it: this test runs the
// real esbuild bundling (no Docker), then evaluates scripts with the bundled worker and wasm.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PACKAGE_BYTES, packageSize } from '../../infra/constructs/package-size.ts';
import { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { createJqEvaluator } from '../../lib/engine/jq/jq.ts';
import { createQuickJsEvaluator, ScriptError } from '../../lib/engine/script/evaluator.ts';
import { ROUTE_TABLE_MODULE, systemCapability } from '../../lib/system/capability.ts';

describe('ServiceFunction bundling', () => {
  let outdir: string;
  let assets: string[];

  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'conductor-cdk-bundle-'));
    const app = new App({ outdir });
    const stack = new Stack(app, 'Bundle');
    new ServiceFunction(stack, 'WithScripts', {
      entry: 'functions/decider.ts',
      description: 'with scripts',
      scriptWorker: true,
    });
    new ServiceFunction(stack, 'WithoutScripts', {
      entry: 'functions/timer.ts',
      description: 'without scripts',
    });
    new ServiceFunction(stack, 'WithModules', {
      entry: 'functions/system.ts',
      description: 'with a module of its own',
      modules: systemCapability.modules,
      assets: systemCapability.assets,
    });
    app.synth();
    assets = readdirSync(outdir)
      .filter((name) => name.startsWith('asset.'))
      .map((name) => join(outdir, name));
  });

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  const withWorker = () => assets.filter((dir) => existsSync(join(dir, 'quickjs-worker.mjs')));

  const withModule = () => assets.filter((dir) => existsSync(join(dir, ROUTE_TABLE_MODULE.file)));

  it('puts the worker bundle and the QuickJS wasm next to index.mjs only where asked', () => {
    expect(assets).toHaveLength(3);
    const [dir, ...others] = withWorker();
    expect(others).toEqual([]);
    expect(readdirSync(dir as string).sort()).toEqual([
      'emscripten-module.wasm',
      'index.mjs',
      'jq-worker.mjs',
      'jq.wasm',
      'quickjs-worker.mjs',
    ]);
  });

  it('keeps every zipped package, the one with both workers included, within 1 MB', () => {
    for (const dir of assets) {
      const size = packageSize(dir);
      expect(size.zippedBytes, `${dir}: ${JSON.stringify(size.files)}`).toBeLessThanOrEqual(
        MAX_PACKAGE_BYTES,
      );
      // The measure is a real one: the bundle is a few hundred KB, compressed.
      expect(size.zippedBytes).toBeGreaterThan(100_000);
      expect(size.zippedBytes).toBeLessThan(size.unzippedBytes);
    }
  });

  it('reaches every Node builtin without an ESM import of it (infra/esm-builtins)', () => {
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    for (const dir of assets) {
      for (const file of readdirSync(dir).filter((name) => name.endsWith('.mjs'))) {
        const code = readFileSync(join(dir, file), 'utf8');
        const imported = [...code.matchAll(/\b(?:from|import)\s*["']([^"']+)["']/g)]
          .map((match) => match[1] as string)
          .filter((specifier) => builtins.has(specifier));
        expect(imported, `${dir}/${file}`).toEqual([]);
      }
    }
  });

  it("bundles a function's module as a file of its own, which it imports when asked (the API document)", () => {
    const [dir, ...others] = withModule();
    expect(others).toEqual([]);
    // The route table holds every capability; the function's own bundle does not.
    const own = readFileSync(join(dir as string, 'index.mjs'), 'utf8');
    const table = readFileSync(join(dir as string, ROUTE_TABLE_MODULE.file), 'utf8');
    expect(own).not.toContain('/api/scheduler/schedules');
    expect(table).toContain('/api/scheduler/schedules');
    const runtime = mkdtempSync(join(tmpdir(), 'conductor-lambda-'));
    try {
      cpSync(dir as string, runtime, { recursive: true });
      const event = {
        version: '2.0',
        rawPath: '/api-docs',
        rawQueryString: '',
        headers: {},
        requestContext: { http: { method: 'GET', path: '/api-docs' }, requestId: 'modules' },
        isBase64Encoded: false,
      };
      const answered = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { handler } = await import('./index.mjs');
           const answer = await handler(${JSON.stringify(event)}, {});
           const paths = Object.keys(JSON.parse(answer.body).paths);
           console.log(answer.statusCode, paths.includes('/api/scheduler/schedules'), paths.includes('/health'));
           process.exit(0);`,
        ],
        {
          cwd: runtime,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', SERVICE_LOG_LEVEL: 'error' },
        },
      );
      expect(answered.stdout.trim(), answered.stderr).toBe('200 true true');
    } finally {
      rmSync(runtime, { recursive: true, force: true });
    }
  });

  it('runs jq filters with the bundled jq worker, its time limit included', async () => {
    const [dir] = withWorker();
    const jq = createJqEvaluator({
      workerUrl: pathToFileURL(join(dir as string, 'jq-worker.mjs')),
      timeoutMs: 300,
    });
    try {
      expect(await jq.evaluate('.a + .b', { a: 2, b: 40 })).toEqual([42]);
      await expect(jq.evaluate('[repeat(1)]', {})).rejects.toMatchObject({ kind: 'timeout' });
    } finally {
      await jq.close();
    }
  });

  it('evaluates scripts with the bundled worker, limits included', async () => {
    const [dir] = withWorker();
    const scripts = createQuickJsEvaluator({
      workerUrl: pathToFileURL(join(dir as string, 'quickjs-worker.mjs')),
    });
    try {
      expect(await scripts.evaluate('$.a + $.b', { a: 2, b: 40 })).toBe(42);
      const looping = scripts.evaluate('while (true) {}', {}, { timeoutMs: 200 });
      await expect(looping).rejects.toBeInstanceOf(ScriptError);
      await expect(looping).rejects.toMatchObject({ kind: 'timeout' });
    } finally {
      await scripts.close();
    }
  });

  it('loads each bundle in a fresh node process with nothing beside it, as on Lambda', () => {
    // The bundle carries its pinned AWS SDK; the runtime's own copy is never resolved. No
    // node_modules is reachable from the copy (a temporary directory outside the repository), so a
    // module left out of the bundle, or one of the local server's (the embedded store's native
    // LevelDB) loaded at import, would fail at cold start.
    for (const dir of assets) {
      const runtime = mkdtempSync(join(tmpdir(), 'conductor-lambda-'));
      try {
        cpSync(dir, runtime, { recursive: true });
        const loaded = spawnSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            "const m = await import('./index.mjs'); console.log(typeof m.handler);",
          ],
          { cwd: runtime, encoding: 'utf8', env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1' } },
        );
        expect(loaded.stderr, dir).toBe('');
        expect(loaded.stdout.trim(), dir).toBe('function');
      } finally {
        rmSync(runtime, { recursive: true, force: true });
      }
    }
  });
});
