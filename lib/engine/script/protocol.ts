/**
 * The messages between the script evaluator's pool (evaluator.ts, main thread) and its worker
 * threads (quickjs-worker.ts). Plain structured-clone data only; both sides import this file, so
 * it must stay free of side effects and of imports that are heavy or thread-specific.
 */

export type ScriptErrorKind = 'syntax' | 'runtime' | 'timeout' | 'memory' | 'crash';

/**
 * QuickJS's own stack limit. It must stay well below the worker thread's native stack
 * (`stackSizeMb` in evaluator.ts): the wasm frames of the interpreter live there, and if V8 runs
 * out first the failure escapes the sandbox as a host RangeError (measured: 512 KiB needs more
 * than 1 MB of native stack; 4 MB is enough, 8 MB leaves margin). 512 KiB allows ~3000 plain
 * recursive calls.
 */
export const MAX_STACK_BYTES = 512 * 1024;

/** One evaluation, main thread -> worker. */
export interface ScriptRequest {
  id: number;
  expression: string;
  /** The bindings as JSON text; parsed inside the VM and bound as `$`. */
  bindings: string;
  timeoutMs: number;
  /** What the script may allocate on top of the context and its parsed bindings. */
  memoryBytes: number;
}

/** Worker -> main thread. */
export type WorkerMessage =
  /** QuickJS is loaded; the worker takes requests from now on. */
  | { type: 'ready' }
  /** The result as JSON text (never empty: `undefined` and functions come back as `null`). */
  | { type: 'result'; id: number; json: string }
  | {
      type: 'failure';
      id: number;
      kind: ScriptErrorKind;
      message: string;
      /** The worker's wasm instance may be damaged: stop the worker and start a fresh one. */
      fatal: boolean;
    };
