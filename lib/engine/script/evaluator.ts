/**
 * The JavaScript evaluator behind INLINE tasks, SWITCH `javascript` expressions and DO_WHILE
 * `loopCondition` (Conductor semantics: the resolved input map is `$`, the value of the last
 * expression is the result, results convert to JSON, 4 s limit).
 *
 * Scripts run in QuickJS compiled to wasm (quickjs-emscripten), never in node:vm, which is not a
 * security boundary. A fresh QuickJS runtime per evaluation bounds memory, stack and time, but the
 * time bound is checked only between bytecode operations: a native builtin such as
 * `new Array(1e6).fill(1)` in a loop runs seconds past the deadline. So evaluations run in a small
 * pool of worker threads (quickjs-worker.ts), and the main thread keeps a wall-clock watchdog: a
 * worker that does not answer by `timeoutMs + WATCHDOG_MARGIN_MS` is terminated, its job fails
 * with kind `timeout`, and a fresh worker takes its place. A worker that dies fails its job with
 * kind `crash` and is replaced the same way. Nothing a script does can block the host's event loop.
 *
 * Starting the worker:
 * - Dev and tests (tsx, vitest): this module is `evaluator.ts`, so the worker is the sibling
 *   `quickjs-worker.ts`. The worker starts with no `execArgv`, so without the loader that runs
 *   TypeScript in the thread starting it (vitest's transform is never a worker's in any case): a
 *   tiny eval bootstrap registers tsx's ESM hooks inside the worker (`tsx/esm/api` `register()`),
 *   then imports the worker module.
 * - Bundled (Lambda, esbuild single-file ESM): this code lives in the function's `index.mjs`, and
 *   the worker must be a SECOND bundle next to it, `quickjs-worker.mjs`, with the QuickJS wasm
 *   beside it (its loader looks for `emscripten-module.wasm` next to the importing file). With
 *   NodejsFunction that is an `afterBundling` command hook, e.g.:
 *     esbuild <root>/lib/engine/script/quickjs-worker.ts --bundle --platform=node --format=esm
 *       --target=node22 --minify --sourcemap --banner:js="<ESM_REQUIRE_BANNER>"
 *       --outfile=<outputDir>/quickjs-worker.mjs
 *     cp <root>/node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm <outputDir>/
 *   Only functions that evaluate scripts need it. `workerUrl` overrides the location.
 */
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../../model/errors.ts';
import type { ScriptErrorKind, ScriptRequest, WorkerMessage } from './protocol.ts';

export type { ScriptErrorKind } from './protocol.ts';

export interface ScriptLimits {
  /** Wall-clock limit of one evaluation. */
  timeoutMs: number;
  /** What the script may allocate inside the VM, on top of the context and its parsed `$`. */
  memoryBytes: number;
}

export const DEFAULT_SCRIPT_LIMITS: Readonly<ScriptLimits> = Object.freeze({
  timeoutMs: 4000,
  memoryBytes: 32 * 1024 * 1024,
});

/**
 * Why a script produced no result: `syntax` (it does not compile), `runtime` (it threw, or its
 * result or input is not JSON), `timeout`, `memory`, or `crash` (the sandbox itself failed, or the
 * evaluator is closed). The message is meant for `reasonForIncompletion`.
 */
export class ScriptError extends Error {
  constructor(
    readonly kind: ScriptErrorKind,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ScriptError';
  }
}

/** Port used by the engine; tests may substitute it. */
export interface ScriptEvaluator {
  /**
   * Evaluates `expression` with `bindings` bound as `$`. Resolves with the JSON value of the last
   * expression (`undefined` -> `null`; a promise is awaited first); rejects with a ScriptError.
   */
  evaluate(
    expression: string,
    bindings: Record<string, unknown>,
    limits?: Partial<ScriptLimits>,
  ): Promise<unknown>;
  /** Fails queued and running evaluations with kind `crash` and stops the workers. Idempotent. */
  close(): Promise<void>;
}

export interface QuickJsEvaluatorOptions {
  /** Limits for evaluations that do not pass their own; DEFAULT_SCRIPT_LIMITS fills the rest. */
  defaults?: Partial<ScriptLimits>;
  /** Worker threads, each running one evaluation at a time. Default 1. */
  workers?: number;
  /** The worker module; default: the sibling quickjs-worker.ts (dev) or quickjs-worker.mjs (bundled). */
  workerUrl?: URL;
}

/** How long past its own limit a worker may take to answer before it is killed. */
export const WATCHDOG_MARGIN_MS = 250;

/** A worker that has not loaded QuickJS by then is considered broken. */
const STARTUP_TIMEOUT_MS = 30_000;

/**
 * The native stack of a worker thread. The QuickJS interpreter's wasm frames live on it, so it must
 * comfortably exceed MAX_STACK_BYTES (see protocol.ts) or deep recursion escapes as a host error.
 */
const WORKER_STACK_MB = 8;

export function createQuickJsEvaluator(options: QuickJsEvaluatorOptions = {}): ScriptEvaluator {
  const defaults = resolveLimits(DEFAULT_SCRIPT_LIMITS, options.defaults);
  const size = options.workers ?? 1;
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`workers must be a positive integer, got ${size}`);
  }
  return new QuickJsPool(defaults, size, options.workerUrl);
}

interface Job {
  request: ScriptRequest;
  limits: ScriptLimits;
  resolve(value: unknown): void;
  reject(error: ScriptError): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  /** Watchdog of the running job, or the startup deadline. */
  timer?: NodeJS.Timeout;
  /** The last uncaught error of the worker, for the crash message. */
  error?: Error;
}

class QuickJsPool implements ScriptEvaluator {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly defaults: ScriptLimits,
    private readonly size: number,
    private readonly workerUrl: URL | undefined,
  ) {}

  evaluate(
    expression: string,
    bindings: Record<string, unknown>,
    limits?: Partial<ScriptLimits>,
  ): Promise<unknown> {
    if (this.closed) return Promise.reject(new ScriptError('crash', 'the script evaluator is closed'));
    let resolved: ScriptLimits;
    let text: string;
    try {
      resolved = resolveLimits(this.defaults, limits);
    } catch (error) {
      return Promise.reject(error);
    }
    try {
      text = JSON.stringify(bindings ?? {});
    } catch (error) {
      const reason = errorMessage(error);
      return Promise.reject(
        new ScriptError('runtime', `the script's input is not JSON: ${reason}`, { cause: error }),
      );
    }
    return new Promise((resolve, reject) => {
      const request: ScriptRequest = { id: this.nextId++, expression, bindings: text, ...resolved };
      this.queue.push({ request, limits: resolved, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const closedError = () => new ScriptError('crash', 'the script evaluator was closed');
    for (const job of this.queue.splice(0)) job.reject(closedError());
    const stopped: Promise<unknown>[] = [];
    for (const slot of [...this.slots]) {
      const { job } = slot;
      stopped.push(this.retire(slot));
      job?.reject(closedError());
    }
    await Promise.all(stopped);
  }

  /** Hands queued jobs to idle workers and starts workers while there is waiting work. */
  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.queue.length === 0) break;
      if (slot.ready && !slot.job) this.assign(slot, this.queue.shift() as Job);
    }
    let starting = [...this.slots].filter((slot) => !slot.ready).length;
    while (this.queue.length > starting && this.slots.size < this.size) {
      this.spawn();
      starting++;
    }
    // An idle pool never keeps the process alive; a worker is referenced only while work waits on it.
    for (const slot of this.slots) {
      if (slot.job || (!slot.ready && this.queue.length > 0)) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  private assign(slot: Slot, job: Job): void {
    slot.job = job;
    slot.timer = setTimeout(() => this.onWatchdog(slot), job.limits.timeoutMs + WATCHDOG_MARGIN_MS);
    slot.worker.postMessage(job.request);
  }

  /** Starts a worker; the caller runs pump() next, which assigns work and sets its ref state. */
  private spawn(): void {
    const worker = startWorker(this.workerUrl);
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    slot.timer = setTimeout(() => {
      void this.retire(slot);
      this.onDeath(slot, false, 'the script worker did not start in time');
    }, STARTUP_TIMEOUT_MS);
    slot.timer.unref();
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message));
    worker.on('error', (error) => {
      slot.error = error;
    });
    worker.on('exit', (code) => {
      if (!this.slots.has(slot)) return; // retired on purpose
      this.slots.delete(slot);
      clearTimeout(slot.timer);
      const reason = slot.error ? `${slot.error.name}: ${slot.error.message}` : `exit code ${code}`;
      this.onDeath(slot, slot.ready, `the script worker stopped unexpectedly (${reason})`);
    });
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (!this.slots.has(slot)) return;
    if (message.type === 'ready') {
      clearTimeout(slot.timer);
      slot.ready = true;
      this.pump();
      return;
    }
    const { job } = slot;
    if (!job || job.request.id !== message.id) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    if (message.type === 'result') {
      settle(job, message.json);
    } else {
      if (message.fatal) this.replace(slot);
      job.reject(new ScriptError(message.kind, message.message));
    }
    this.pump();
  }

  private onWatchdog(slot: Slot): void {
    const { job } = slot;
    this.replace(slot);
    job?.reject(
      new ScriptError(
        'timeout',
        `script timed out after ${job.limits.timeoutMs} ms (it did not yield; its worker was stopped)`,
      ),
    );
    this.pump();
  }

  /** A worker exited on its own, or never became ready. */
  private onDeath(slot: Slot, wasReady: boolean, reason: string): void {
    const { job } = slot;
    if (job) {
      // A worker over its V8 heap limit was killed by an allocation of the running script.
      const kind =
        (slot.error as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? 'memory'
          : 'crash';
      job.reject(new ScriptError(kind, reason, { cause: slot.error }));
    }
    if (this.closed) return;
    if (wasReady) {
      this.spawn();
    } else if (this.slots.size === 0) {
      // Nothing else can serve the queue, and a worker that cannot start will not start next time
      // either: fail what waits rather than retry forever. The next evaluate() tries again.
      for (const queued of this.queue.splice(0)) {
        queued.reject(
          new ScriptError('crash', `the script worker could not start: ${reason}`, { cause: slot.error }),
        );
      }
    }
    this.pump();
  }

  /** Stops a worker that may be damaged or stuck and starts a fresh one for the next job. */
  private replace(slot: Slot): void {
    void this.retire(slot);
    if (!this.closed) this.spawn();
  }

  /** Forgets a worker (its exit is then no news) and stops it. */
  private retire(slot: Slot): Promise<unknown> {
    this.slots.delete(slot);
    clearTimeout(slot.timer);
    slot.job = undefined;
    return slot.worker.terminate().catch(() => undefined);
  }
}

function settle(job: Job, json: string): void {
  try {
    job.resolve(JSON.parse(json));
  } catch (error) {
    job.reject(new ScriptError('crash', "the script's result could not be read", { cause: error }));
  }
}

function resolveLimits(base: ScriptLimits, override?: Partial<ScriptLimits>): ScriptLimits {
  const timeoutMs = override?.timeoutMs ?? base.timeoutMs;
  const memoryBytes = override?.memoryBytes ?? base.memoryBytes;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}`);
  if (!Number.isFinite(memoryBytes) || memoryBytes <= 0) {
    throw new RangeError(`memoryBytes must be positive, got ${memoryBytes}`);
  }
  return { timeoutMs: Math.ceil(timeoutMs), memoryBytes: Math.ceil(memoryBytes) };
}

function startWorker(override: URL | undefined): Worker {
  const url = override ?? defaultWorkerUrl();
  const options = {
    // The worker needs nothing from the environment (credentials live there on Lambda).
    env: {},
    resourceLimits: { stackSizeMb: WORKER_STACK_MB },
  };
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  // TypeScript source (dev, tests): register tsx inside the worker first. `import.meta.resolve`
  // picks tsx's ESM build, whose register() resolves its hooks correctly.
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true, execArgv: [] });
}

function defaultWorkerUrl(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './quickjs-worker.ts' : './quickjs-worker.mjs', here);
}
