/**
 * Worker-thread body of the QuickJS script evaluator (the pool, and why there is a thread at all,
 * are in evaluator.ts). Loads the QuickJS wasm module once, then serves one request at a time, each
 * in a fresh QuickJS runtime + context with its own deadline, memory limit and stack limit.
 *
 * What a script sees: the ECMAScript built-ins of QuickJS, `$` (the bindings, parsed from JSON
 * inside the VM, so no host object ever crosses over) and a no-op `console` (GraalJS has one, and
 * scripts written for Conductor call it). There are no host functions at all: no `process`,
 * `require`, timers, `fetch` or IO, and `import()` always fails. The result leaves the VM as the
 * text of the VM's own `JSON.stringify`, taken before the script ran (so a script that replaces
 * `JSON` only hurts itself).
 */
import { parentPort } from 'node:worker_threads';
import {
  type JSModuleLoader,
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  RELEASE_SYNC,
  shouldInterruptAfterDeadline,
} from 'quickjs-emscripten';
import { MAX_STACK_BYTES, type ScriptErrorKind, type ScriptRequest, type WorkerMessage } from './protocol.ts';

/** The file name QuickJS gives the script in stack traces; used to find the error position. */
const SCRIPT_FILE = 'script';
const MAX_MESSAGE_CHARS = 2000;

/**
 * While `$` is being parsed the script's own limit is not in force yet; this bounds that step
 * (a QuickJS object graph is larger than its JSON text, by up to ~30x for tiny objects).
 */
const BINDING_BYTES_PER_CHAR = 32;

const PRELUDE =
  'globalThis.console = (() => { const noop = () => undefined; ' +
  'return { log: noop, info: noop, warn: noop, error: noop, debug: noop, trace: noop }; })();';

const refuseModules: JSModuleLoader = (name) => ({
  error: new Error(`cannot import '${name}': modules are not available to scripts`),
});

/** A failure that belongs to the script (as opposed to a fault of the sandbox itself). */
class ScriptFailure extends Error {
  constructor(
    readonly kind: ScriptErrorKind,
    message: string,
  ) {
    super(message);
  }
}

const port = parentPort;
if (!port) throw new Error('quickjs-worker.ts must be started as a worker thread (see evaluator.ts)');

const quickjs = await newQuickJSWASMModuleFromVariant(RELEASE_SYNC);

/**
 * The fresh runtime + context the next request runs in (prelude included), made while the worker
 * is idle (after it answers), so a request does not wait for QuickJS to build its built-ins (about
 * half of an evaluation's time). It is still one new context per evaluation, never reused.
 */
let prepared: QuickJSContext | undefined;

function prepareNext(): void {
  setImmediate(() => {
    try {
      prepared ??= freshContext();
    } catch {
      // The request makes its own, and reports what fails then.
    }
  });
}

port.on('message', (request: ScriptRequest) => {
  const { outcome, used } = handle(request);
  port.postMessage(outcome);
  // A successful evaluation's context is freed after its answer is on its way, off the request's
  // path (a failed one was freed before, as its fault may lie there). Still before the next request
  // is read: this handler runs to its end first. A runtime that cannot be freed leaves the wasm
  // heap in an unknown state, so the worker ends (the pool replaces it; a job it was given in the
  // meantime fails as a crash, like any worker's death).
  if (used) {
    try {
      used.dispose();
    } catch {
      process.exit(1);
    }
  }
  prepareNext();
});
prepareNext();
port.postMessage({ type: 'ready' } satisfies WorkerMessage);

/** A new runtime + context (the context owns it) with the prelude run: what one evaluation gets. */
function freshContext(): QuickJSContext {
  const context = quickjs.newContext();
  try {
    context.unwrapResult(context.evalCode(PRELUDE, 'prelude', { type: 'global' })).dispose();
  } catch (error) {
    context.dispose();
    throw error;
  }
  return context;
}

/** Runs one request; `used`: a context still to be freed (after a successful evaluation). */
function handle(request: ScriptRequest): { outcome: WorkerMessage; used?: QuickJSContext } {
  const deadline = Date.now() + request.timeoutMs;
  let outcome: WorkerMessage;
  let context: QuickJSContext | undefined;
  try {
    // Owns its runtime: disposing the context frees both.
    context = prepared ?? freshContext();
    prepared = undefined;
    outcome = { type: 'result', id: request.id, json: run(context, request, deadline) };
    return { outcome, used: context };
  } catch (error) {
    outcome =
      error instanceof ScriptFailure
        ? { type: 'failure', id: request.id, kind: error.kind, message: error.message, fatal: false }
        : { type: 'failure', id: request.id, kind: 'crash', message: sandboxFault(error), fatal: true };
  }
  try {
    context?.dispose();
  } catch (error) {
    // A runtime that cannot be freed leaves the wasm heap in an unknown state.
    outcome = { type: 'failure', id: request.id, kind: 'crash', message: sandboxFault(error), fatal: true };
  }
  return { outcome };
}

function run(context: QuickJSContext, request: ScriptRequest, deadline: number): string {
  const { runtime } = context;
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  runtime.setModuleLoader(refuseModules);
  runtime.setMemoryLimit(request.memoryBytes + BINDING_BYTES_PER_CHAR * request.bindings.length);

  const handles: QuickJSHandle[] = [];
  const keep = <T extends QuickJSHandle>(handle: T): T => {
    handles.push(handle);
    return handle;
  };
  try {
    const json = keep(context.getProp(context.global, 'JSON'));
    const parse = keep(context.getProp(json, 'parse'));
    const stringify = keep(context.getProp(json, 'stringify'));

    const bound = context.callFunction(parse, json, keep(context.newString(request.bindings)));
    if (bound.error)
      throw failure(context, keep(bound.error), request, "could not bind the script's input: ");
    context.setProp(context.global, '$', keep(bound.value));

    // From here on the limit is what the script itself may allocate.
    runtime.setMemoryLimit(memoryUsed(context) + request.memoryBytes);

    const evaluated = context.evalCode(request.expression, SCRIPT_FILE, { type: 'global' });
    if (evaluated.error) throw failure(context, keep(evaluated.error), request);
    let value = keep(evaluated.value);

    // Run the microtasks the script queued (under the same deadline), then settle a promise result,
    // so `(async () => …)()` works and `import()` reports why it failed.
    const jobs = runtime.executePendingJobs();
    if (jobs.error) throw failure(context, keep(jobs.error), request);
    const state = context.getPromiseState(value);
    if (state.type === 'pending') {
      throw new ScriptFailure('runtime', 'the script returned a promise that never settled');
    }
    if (state.type === 'rejected') {
      throw failure(context, keep(state.error), request, "the script's promise was rejected: ");
    }
    if (!state.notAPromise) value = keep(state.value);

    const text = context.callFunction(stringify, context.undefined, value);
    if (text.error) throw failure(context, keep(text.error), request, "the script's result is not JSON: ");
    // `JSON.stringify` gives undefined for undefined, functions and symbols: those become null.
    return context.typeof(keep(text.value)) === 'string' ? context.getString(text.value) : 'null';
  } finally {
    for (const handle of handles.reverse()) if (handle.alive) handle.dispose();
  }
}

/** Bytes the runtime uses so far (the context, its built-ins and `$`); 0 if it cannot tell. */
function memoryUsed(context: QuickJSContext): number {
  const usage = context.runtime.computeMemoryUsage();
  try {
    const size = context.getProp(usage, 'memory_used_size');
    try {
      const bytes = context.typeof(size) === 'number' ? context.getNumber(size) : 0;
      return Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
    } finally {
      size.dispose();
    }
  } finally {
    usage.dispose();
  }
}

interface Thrown {
  name?: string;
  message: string;
  stack?: string;
}

/** Classifies a value thrown inside the VM. */
function failure(
  context: QuickJSContext,
  thrown: QuickJSHandle,
  request: ScriptRequest,
  prefix = '',
): ScriptFailure {
  const { name, message, stack } = describe(context, thrown);
  if (name === 'InternalError' && message === 'interrupted') {
    return new ScriptFailure('timeout', `script timed out after ${request.timeoutMs} ms`);
  }
  if (name === 'InternalError' && (message === 'out of memory' || message === 'string too long')) {
    return new ScriptFailure(
      'memory',
      `script exceeded its memory limit of ${formatBytes(request.memoryBytes)} (${message})`,
    );
  }
  // A SyntaxError raised while compiling the script has no function frame: `at script:1:4`.
  // One raised at run time (`JSON.parse('{')`, `eval('1 +')`) is an ordinary runtime error.
  const firstFrame = stack?.split('\n').find((line) => line.trim() !== '') ?? '';
  const compileError =
    name === 'SyntaxError' &&
    prefix === '' &&
    new RegExp(`^\\s*at ${SCRIPT_FILE}:\\d+:\\d+\\s*$`).test(firstFrame);
  const position = new RegExp(`${SCRIPT_FILE}:(\\d+):(\\d+)`).exec(firstFrame);
  const where = position ? ` (line ${position[1]}, column ${position[2]})` : '';
  const text = name ? `${name}: ${message}` : message;
  return new ScriptFailure(compileError ? 'syntax' : 'runtime', truncate(`${prefix}${text}${where}`));
}

function describe(context: QuickJSContext, thrown: QuickJSHandle): Thrown {
  try {
    if (context.typeof(thrown) === 'object') {
      const name = stringProp(context, thrown, 'name');
      const message = stringProp(context, thrown, 'message');
      if (name !== undefined || message !== undefined) {
        return { name, message: message ?? '', stack: stringProp(context, thrown, 'stack') };
      }
    }
    // Not an Error: a thrown string, number, plain object, null…
    const dumped: unknown = context.dump(thrown);
    return { message: typeof dumped === 'string' ? dumped : String(JSON.stringify(dumped)) };
  } catch {
    return { message: 'the script threw a value that cannot be read' };
  }
}

function stringProp(context: QuickJSContext, handle: QuickJSHandle, key: string): string | undefined {
  try {
    const value = context.getProp(handle, key);
    try {
      return context.typeof(value) === 'string' ? context.getString(value) : undefined;
    } finally {
      value.dispose();
    }
  } catch {
    return undefined;
  }
}

function sandboxFault(error: unknown): string {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return truncate(`the script sandbox failed: ${detail}`);
}

function truncate(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
