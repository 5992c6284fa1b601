/**
 * Worker-thread body of the jq evaluator (jq.ts). Loads jq 1.8 compiled to wasm (jq-wasm) once,
 * then runs one filter at a time over the JSON text it is sent, answering every result as one JSON
 * array. It speaks the script pool's protocol (script/protocol.ts), so the pool's wall-clock
 * watchdog bounds a filter that never ends (`repeat(1)`) by stopping this thread.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { loadJq } from 'jq-wasm';
import type { ScriptRequest, WorkerMessage } from '../script/protocol.ts';

const MAX_MESSAGE_CHARS = 2000;

const port = parentPort;
if (!port) throw new Error('jq-worker.ts must be started as a worker thread (see jq.ts)');

const jq = await loadJq({ wasmBinary: jqWasm() });

/**
 * jq's wasm, as a file: beside this worker once bundled (`jq.wasm`, copied there by the bundling,
 * infra/constructs/service-function.ts, as QuickJS's is), else the package's own. A file rather than
 * jq-wasm's inline build, whose base64 copy of the wasm zips a third larger.
 */
function jqWasm(): Uint8Array {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return readFileSync(createRequire(here).resolve('jq-wasm/jq.wasm'));
  return readFileSync(new URL('./jq.wasm', here));
}

port.on('message', (request: ScriptRequest) => {
  port.postMessage(handle(request));
});
port.postMessage({ type: 'ready' } satisfies WorkerMessage);

function handle(request: ScriptRequest): WorkerMessage {
  try {
    const results = jq.json(JSON.parse(request.bindings) as object, request.expression);
    return { type: 'result', id: request.id, json: JSON.stringify(results) };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const kind = /compile error/.test(text) ? 'syntax' : 'runtime';
    return {
      type: 'failure',
      id: request.id,
      kind,
      message: text.trim().slice(0, MAX_MESSAGE_CHARS),
      fatal: false,
    };
  }
}
