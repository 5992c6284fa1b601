/**
 * The jq evaluator behind JSON_JQ_TRANSFORM: a real jq (1.8, compiled to wasm by jq-wasm, no
 * binary to download). A jq filter runs synchronously inside wasm and cannot be interrupted from
 * its own thread, so filters run in a worker thread of the script pool (script/evaluator.ts), whose
 * watchdog stops a filter past its time limit and starts a fresh worker. jq-wasm compiles the
 * filter on each call (it has no compiled-filter handle); what is cached is the loaded jq module,
 * once per worker.
 *
 * Bundled (Lambda): like the QuickJS worker, `jq-worker.mjs` is a second bundle beside the
 * function's `index.mjs`; `workerUrl` overrides the location.
 */
import { createQuickJsEvaluator, ScriptError, type ScriptEvaluator } from '../script/evaluator.ts';

export interface JqEvaluator {
  /** Every result of `query` over `input`; rejects with jq's message (a ScriptError). */
  evaluate(query: string, input: unknown): Promise<unknown[]>;
  close(): Promise<void>;
}

export interface JqEvaluatorOptions {
  /** Wall-clock limit of one filter (default 4 s, as INLINE). */
  timeoutMs?: number;
  workers?: number;
  workerUrl?: URL;
}

export function createJqEvaluator(options: JqEvaluatorOptions = {}): JqEvaluator {
  const timeoutMs = options.timeoutMs ?? 4000;
  const pool: ScriptEvaluator = createQuickJsEvaluator({
    defaults: { timeoutMs },
    workers: options.workers ?? 1,
    workerUrl: options.workerUrl ?? defaultWorkerUrl(),
  });
  return {
    async evaluate(query, input) {
      try {
        const results = await pool.evaluate(query, input as Record<string, unknown>);
        return Array.isArray(results) ? results : [results];
      } catch (error) {
        if (error instanceof ScriptError && error.kind === 'timeout')
          throw new ScriptError('timeout', `jq query timed out after ${timeoutMs} ms`);
        throw error;
      }
    },
    close: () => pool.close(),
  };
}

function defaultWorkerUrl(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './jq-worker.ts' : './jq-worker.mjs', here);
}
