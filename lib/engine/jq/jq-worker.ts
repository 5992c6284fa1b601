/**
 * Worker-thread body of the jq evaluator (jq.ts). Loads jq 1.8 compiled to wasm (jq-wasm) once,
 * then runs one filter at a time over the JSON text it is sent, answering every result as one JSON
 * array. It speaks the script pool's protocol (script/protocol.ts), so the pool's wall-clock
 * watchdog bounds a filter that never ends (`repeat(1)`) by stopping this thread.
 */
import { parentPort } from 'node:worker_threads';
// The inline build carries its wasm inside the module, so the bundled worker needs no file beside it.
import { loadJq } from 'jq-wasm/inline';
import type { ScriptRequest, WorkerMessage } from '../script/protocol.ts';

const MAX_MESSAGE_CHARS = 2000;

const port = parentPort;
if (!port) throw new Error('jq-worker.ts must be started as a worker thread (see jq.ts)');

const jq = await loadJq();

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
