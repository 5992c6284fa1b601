import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createQuickJsEvaluator,
  ScriptError,
  type ScriptEvaluator,
} from '../../lib/engine/script/evaluator.ts';

/** The rejection of an evaluation that must fail, checked to be a ScriptError. */
async function failure(evaluation: Promise<unknown>): Promise<ScriptError> {
  try {
    const value = await evaluation;
    throw new Error(`expected the evaluation to fail, it returned ${JSON.stringify(value)}`);
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    return error;
  }
}

/** Milliseconds an evaluation took to settle, with its rejection if any. */
async function timed(evaluation: Promise<unknown>): Promise<{ ms: number; error: ScriptError }> {
  const started = performance.now();
  const error = await failure(evaluation);
  return { ms: performance.now() - started, error };
}

let evaluator: ScriptEvaluator;

beforeAll(async () => {
  evaluator = createQuickJsEvaluator();
  // Start the worker up front so the first test does not pay for it.
  await evaluator.evaluate('0', {});
});

afterAll(async () => {
  await evaluator.close();
});

const run = (expression: string, bindings: Record<string, unknown> = {}) =>
  evaluator.evaluate(expression, bindings);

describe('the result is the value of the last expression', () => {
  test('an expression', async () => {
    await expect(run('$.a + 1', { a: 41 })).resolves.toBe(42);
  });

  test('statements before the last expression', async () => {
    await expect(run('var x = $.n * 2; let y = x + 1; y;', { n: 5 })).resolves.toBe(11);
  });

  test('an if/else block yields the value of the branch taken', async () => {
    const script = "if ($.x > 1) { 'big' } else { 'small' }";
    await expect(run(script, { x: 5 })).resolves.toBe('big');
    await expect(run(script, { x: 0 })).resolves.toBe('small');
  });

  test('a function declared then called', async () => {
    await expect(run('function f() { return $.x } f();', { x: 'hello' })).resolves.toBe('hello');
    await expect(run('(function () { return $.list.length; })()', { list: [1, 2, 3] })).resolves.toBe(3);
  });

  test('ES2015+ syntax and built-ins', async () => {
    const script =
      'class Tag { constructor(id) { this.id = id } get label() { return this.id + "!" } } ' +
      'const { items } = $; [...items].filter((i) => i.ok).map(({ id }) => new Tag(id).label).join(",")';
    await expect(
      run(script, { items: [{ id: 'a', ok: true }, { id: 'b' }, { id: 'c', ok: true }] }),
    ).resolves.toBe('a!,c!');
  });

  test('a DO_WHILE style condition and a SWITCH style case value', async () => {
    await expect(run('$.loop.iteration < 3', { loop: { iteration: 2 } })).resolves.toBe(true);
    await expect(run('$.kind === "x" ? "caseX" : "other"', { kind: 'x' })).resolves.toBe('caseX');
  });

  test('a promise result is awaited', async () => {
    await expect(run('(async () => $.a * 2)()', { a: 21 })).resolves.toBe(42);
  });

  test('console exists and does nothing', async () => {
    await expect(run('console.log("debug", $.a); console.error("x"); $.a', { a: 1 })).resolves.toBe(1);
  });
});

describe('$ holds the bindings', () => {
  test('nested objects and arrays, and odd strings', async () => {
    const bindings = {
      order: {
        id: 'o-1',
        lines: [
          { sku: 'a', qty: 2 },
          { sku: 'b', qty: 3 },
        ],
        meta: { tags: ['x', 'y'] },
      },
      text: 'quote " apostrophe \' backslash \\ newline \n separators \u2028\u2029 emoji 😀',
      nothing: null,
    };
    await expect(run('$.order.lines.reduce((n, l) => n + l.qty, 0)', bindings)).resolves.toBe(5);
    await expect(run('$.order.meta.tags[1]', bindings)).resolves.toBe('y');
    await expect(run('$', bindings)).resolves.toEqual(bindings);
  });

  test('a missing key is undefined, and an empty input is an empty object', async () => {
    await expect(run('typeof $.missing', { a: 1 })).resolves.toBe('undefined');
    await expect(run('Object.keys($).length', {})).resolves.toBe(0);
  });

  test('an input that is not JSON is refused', async () => {
    const error = await failure(run('1', { big: 1n }));
    expect(error.kind).toBe('runtime');
    expect(error.message).toContain('not JSON');
  });
});

describe('results convert to JSON', () => {
  test.each([
    ['an object', '({ a: 1, b: [true, null], c: { d: "e" } })', { a: 1, b: [true, null], c: { d: 'e' } }],
    ['an array', '[1, "two", false, null]', [1, 'two', false, null]],
    ['an integer', '7', 7],
    ['a double', '0.5 + 0.25', 0.75],
    ['a string', '"text"', 'text'],
    ['a boolean', '1 < 2', true],
    ['null', 'null', null],
    ['undefined, as null', 'undefined', null],
    ['no value at all, as null', 'var x = 1;', null],
    ['a function, as null', '(function () {})', null],
    ['NaN, as null', '0 / 0', null],
    ['a Date, as its ISO string', 'new Date(Date.UTC(2024, 0, 2, 3, 4, 5))', '2024-01-02T03:04:05.000Z'],
    ['undefined members, dropped', '({ a: undefined, b: 1, f() {} })', { b: 1 }],
    ['a Map, as an empty object', 'new Map([["a", 1]])', {}],
  ])('%s', async (_label, script, expected) => {
    await expect(run(script)).resolves.toEqual(expected);
  });

  test('a result JSON cannot express fails as a runtime error', async () => {
    const error = await failure(run('({ n: 1n })'));
    expect(error.kind).toBe('runtime');
    expect(error.message).toMatch(/BigInt/);
  });
});

describe('errors', () => {
  test('a syntax error is kind syntax, with its position', async () => {
    const error = await failure(run('$.a +'));
    expect(error.kind).toBe('syntax');
    expect(error.message).toMatch(/^SyntaxError: .+ \(line 1, column \d+\)$/);
  });

  test('static import is a syntax error', async () => {
    const error = await failure(run("import fs from 'fs'; 1"));
    expect(error.kind).toBe('syntax');
  });

  test('a thrown Error is kind runtime, with its message', async () => {
    const error = await failure(run('if ($.bad) { throw new Error("boom: " + $.bad) } 1', { bad: 'yes' }));
    expect(error).toBeInstanceOf(Error);
    expect(error.kind).toBe('runtime');
    expect(error.message).toMatch(/^Error: boom: yes/);
  });

  test('thrown non-errors and built-in errors', async () => {
    expect((await failure(run('throw "plain"'))).message).toBe('plain');
    expect((await failure(run('throw { code: 7 }'))).message).toBe('{"code":7}');
    const typeError = await failure(run('$.missing.deeper', {}));
    expect(typeError.kind).toBe('runtime');
    expect(typeError.message).toMatch(/^TypeError: /);
  });

  test('a SyntaxError raised while running is a runtime error', async () => {
    const error = await failure(run('JSON.parse("{")'));
    expect(error.kind).toBe('runtime');
    expect(error.message).toMatch(/^SyntaxError/);
  });

  test('a rejected or never-settled promise fails', async () => {
    expect((await failure(run('Promise.reject(new Error("nope"))'))).message).toContain('Error: nope');
    expect((await failure(run('new Promise(() => {})'))).message).toContain('never settled');
  });

  test('runaway recursion is a runtime error and leaves the worker usable', async () => {
    const error = await failure(run('function f(n) { return f(n + 1) + 1 } f(0)'));
    expect(error.kind).toBe('runtime');
    expect(error.message).toContain('stack overflow');
    await expect(run('$.ok', { ok: 'still fine' })).resolves.toBe('still fine');
  });
});

describe('limits', () => {
  test('an endless loop times out, the host keeps serving, and the next evaluation works', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      const { ms, error } = await timed(evaluator.evaluate('while (true) {}', {}, { timeoutMs: 200 }));
      expect(error.kind).toBe('timeout');
      expect(error.message).toContain('200 ms');
      expect(ms).toBeGreaterThanOrEqual(190);
      expect(ms).toBeLessThan(1000);
      expect(ticks).toBeGreaterThan(3); // the main thread's event loop never stalled
    } finally {
      clearInterval(ticker);
    }
    await expect(run('$.a + $.b', { a: 1, b: 2 })).resolves.toBe(3);
  });

  test('a script cannot catch its timeout', async () => {
    const script = 'try { while (true) {} } catch (e) { "caught" }';
    const { error } = await timed(evaluator.evaluate(script, {}, { timeoutMs: 200 }));
    expect(error.kind).toBe('timeout');
  });

  test('a native builtin that runs past the deadline is stopped by the watchdog', async () => {
    const bomb = 'const keep = []; while (true) { keep.push(new Array(1e6).fill(1)) }';
    const { ms, error } = await timed(evaluator.evaluate(bomb, {}, { timeoutMs: 300 }));
    expect(['memory', 'timeout']).toContain(error.kind);
    expect(ms).toBeLessThan(1500);
    await expect(run('"next"')).resolves.toBe('next');
  });

  test('unbounded string growth fails with memory or timeout', async () => {
    const bomb = 'let s = "x"; while (true) { s = s + s + String(s.length) }';
    const { ms, error } = await timed(evaluator.evaluate(bomb, {}, { timeoutMs: 300 }));
    expect(['memory', 'timeout']).toContain(error.kind);
    expect(ms).toBeLessThan(1500);
    await expect(run('1 + 1')).resolves.toBe(2);
  });

  test('allocating past the memory limit is kind memory', async () => {
    const bomb = 'const keep = []; while (true) { keep.push({ n: keep.length, s: "payload" }) }';
    const { ms, error } = await timed(
      evaluator.evaluate(bomb, {}, { memoryBytes: 4 * 1024 * 1024, timeoutMs: 2000 }),
    );
    expect(error.kind).toBe('memory');
    expect(error.message).toContain('4 MiB');
    expect(ms).toBeLessThan(2000);
    await expect(run('[1, 2].length')).resolves.toBe(2);
  });

  test('the memory limit is on top of the bindings', async () => {
    const big = { rows: Array.from({ length: 20_000 }, (_, i) => ({ id: `row-${i}`, value: i })) };
    const result = evaluator.evaluate('$.rows.length', big, { memoryBytes: 1024 * 1024 });
    await expect(result).resolves.toBe(20_000);
  });

  test('invalid limits are refused', async () => {
    await expect(evaluator.evaluate('1', {}, { timeoutMs: 0 })).rejects.toThrow(RangeError);
    expect(() => createQuickJsEvaluator({ defaults: { memoryBytes: -1 } })).toThrow(RangeError);
    expect(() => createQuickJsEvaluator({ workers: 0 })).toThrow(RangeError);
  });
});

describe('the sandbox gives nothing of the host', () => {
  test('host globals are not defined', async () => {
    const names = [
      'process',
      'require',
      'module',
      'Buffer',
      'fetch',
      'setTimeout',
      'WebAssembly',
      'std',
      'os',
      'Deno',
    ];
    const script = `${JSON.stringify(names)}.filter((n) => typeof globalThis[n] !== 'undefined')`;
    await expect(run(script)).resolves.toEqual([]);
    (globalThis as Record<string, unknown>).__hostSecret = 'secret';
    try {
      await expect(run('typeof __hostSecret')).resolves.toBe('undefined');
    } finally {
      delete (globalThis as Record<string, unknown>).__hostSecret;
    }
  });

  test('process and require are not defined', async () => {
    const processError = await failure(run('process.exit(1)'));
    expect(processError.kind).toBe('runtime');
    expect(processError.message).toContain("'process' is not defined");
    expect((await failure(run('require("fs")'))).message).toContain("'require' is not defined");
  });

  test('the constructor escape finds no process', async () => {
    const error = await failure(run("globalThis.constructor.constructor('return process')()"));
    expect(error.message).toContain("'process' is not defined");
    const viaThis = await failure(run("this.constructor.constructor('return this.process.mainModule')()"));
    expect(viaThis.kind).toBe('runtime');
    expect(viaThis.message).toMatch(/TypeError|not defined/);
  });

  test('import() fails', async () => {
    const error = await failure(run("import('fs').then((fs) => fs.readFileSync('/etc/passwd', 'utf8'))"));
    expect(error.kind).toBe('runtime');
    expect(error.message).toContain('modules are not available');
  });

  test('no way of writing a file has any effect', async () => {
    const path = join(tmpdir(), `script-sandbox-${process.pid}-${Date.now()}.txt`);
    rmSync(path, { force: true });
    const script = `
      const attempts = [
        () => require('fs').writeFileSync($.path, 'x'),
        () => process.mainModule.require('fs').writeFileSync($.path, 'x'),
        () => globalThis.constructor.constructor('return process')().binding('fs'),
        () => Function('return this')().process.getBuiltinModule('fs').writeFileSync($.path, 'x'),
        () => import('fs').then((fs) => fs.writeFileSync($.path, 'x')),
        () => import('node:fs').then((fs) => fs.writeFileSync($.path, 'x')),
        () => std.open($.path, 'w').puts('x'),
        () => os.open($.path, 2 | 64),
        () => fetch('file://' + $.path, { method: 'PUT', body: 'x' }),
      ];
      const outcomes = attempts.map((attempt) => {
        try {
          const value = attempt();
          if (value && typeof value.then === 'function') { value.catch(() => undefined); return 'promise'; }
          return 'returned';
        } catch (e) {
          return e.name;
        }
      });
      outcomes;
    `;
    const outcomes = (await run(script, { path })) as string[];
    expect(outcomes).toEqual([
      'ReferenceError',
      'ReferenceError',
      'ReferenceError',
      'TypeError',
      'promise',
      'promise',
      'ReferenceError',
      'ReferenceError',
      'ReferenceError',
    ]);
    await sleep(50);
    expect(existsSync(path)).toBe(false);
  });

  test('each evaluation starts from a clean context', async () => {
    await expect(
      run('Object.prototype.polluted = "yes"; globalThis.leak = 1; Array.prototype.push = null; 1'),
    ).resolves.toBe(1);
    await expect(run('[({}).polluted ?? null, typeof leak, typeof [].push]')).resolves.toEqual([
      null,
      'undefined',
      'function',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('replacing JSON inside the script only affects the script', async () => {
    await expect(run('JSON.stringify = () => "evil"; JSON = null; ({ ok: true })')).resolves.toEqual({
      ok: true,
    });
  });
});

describe('the pool', () => {
  test('50 concurrent evaluations all resolve with their own result', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        run('({ i: $.i, doubled: $.i * 2, tag: $.tag })', { i, tag: `t${i}` }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => ({ i, doubled: i * 2, tag: `t${i}` })));
  });

  test('with two workers, a stuck script does not hold up the others', async () => {
    const pool = createQuickJsEvaluator({ workers: 2 });
    try {
      await Promise.all([pool.evaluate('1', {}), pool.evaluate('2', {})]);
      let stuckSettled = false;
      const stuck = failure(pool.evaluate('while (true) {}', {}, { timeoutMs: 1200 })).finally(() => {
        stuckSettled = true;
      });
      const quick = await Promise.all(Array.from({ length: 10 }, (_, i) => pool.evaluate('$.i', { i })));
      expect(quick).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(stuckSettled).toBe(false);
      expect((await stuck).kind).toBe('timeout');
    } finally {
      await pool.close();
    }
  });

  test('a worker that dies fails its job as a crash and is replaced', async () => {
    const fakeWorker = `
      import { parentPort } from 'node:worker_threads';
      parentPort.on('message', (request) => {
        if (request.expression === 'die') process.exit(3);
        parentPort.postMessage({ type: 'result', id: request.id, json: JSON.stringify(request.expression) });
      });
      parentPort.postMessage({ type: 'ready' });
    `;
    const pool = createQuickJsEvaluator({
      workerUrl: new URL(`data:text/javascript,${encodeURIComponent(fakeWorker)}`),
    });
    try {
      await expect(pool.evaluate('before', {})).resolves.toBe('before');
      const dying = failure(pool.evaluate('die', {}));
      const queued = pool.evaluate('queued', {});
      const error = await dying;
      expect(error.kind).toBe('crash');
      expect(error.message).toContain('exit code 3');
      await expect(Promise.all([queued, pool.evaluate('after', {})])).resolves.toEqual(['queued', 'after']);
    } finally {
      await pool.close();
    }
  });

  test('a worker that cannot start fails the waiting evaluations', async () => {
    const broken = new URL(`data:text/javascript,${encodeURIComponent('throw new Error("no wasm here")')}`);
    const pool = createQuickJsEvaluator({ workerUrl: broken });
    try {
      const error = await failure(pool.evaluate('1', {}));
      expect(error.kind).toBe('crash');
      expect(error.message).toContain('no wasm here');
    } finally {
      await pool.close();
    }
  });

  test('after close(), evaluations are refused and running ones fail', async () => {
    const pool = createQuickJsEvaluator();
    await expect(pool.evaluate('1', {})).resolves.toBe(1);
    const running = failure(pool.evaluate('while (true) {}', {}, { timeoutMs: 5000 }));
    await sleep(20);
    await pool.close();
    expect((await running).kind).toBe('crash');
    const refused = await failure(pool.evaluate('1', {}));
    expect(refused.kind).toBe('crash');
    expect(refused.message).toContain('closed');
    await pool.close();
  });
});
