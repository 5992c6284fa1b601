// The Lambda Node.js runtime's part, in a fresh process: imports the module the handler setting
// (`_HANDLER`, e.g. `index.handler`) names from LAMBDA_TASK_ROOT, then runs the invocations the
// harness sends over IPC one at a time, as one Lambda execution environment does. Plain
// JavaScript: the process has Node and the function's package, nothing else.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Time follows the harness clock (test/deployed/harness/clock.ts): real time plus the offset the
// harness sends whenever a test moves it, so a function sees the time SQS and the rules see.
let offset = Number(process.env.HARNESS_CLOCK_OFFSET ?? 0);
const RealDate = Date;
globalThis.Date = class extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offset;
  }
};
process.on('message', (message) => {
  if (message?.type === 'clock') offset = message.offset;
});

const root = process.env.LAMBDA_TASK_ROOT;
const [moduleName, exportName] = (process.env._HANDLER ?? '').split('.');
const started = performance.now();

const describe = (error) => ({
  errorType: error instanceof Error ? error.name : typeof error,
  errorMessage: error instanceof Error ? error.message : String(error),
  stack: error instanceof Error ? String(error.stack).split('\n').slice(0, 8) : [],
});

let handler;
try {
  const file = ['.mjs', '.js', '.cjs'].map((ext) => join(root, `${moduleName}${ext}`)).find(existsSync);
  if (!file) throw new Error(`Cannot find module '${moduleName}' in ${root}`);
  const module = await import(pathToFileURL(file).href);
  handler = module[exportName];
  if (typeof handler !== 'function') throw new Error(`${moduleName}.${exportName} is not a function`);
  process.send({ type: 'ready', initMs: performance.now() - started });
} catch (error) {
  process.send({ type: 'init-error', error: describe(error) });
  process.exitCode = 1;
}

if (handler) {
  process.on('message', async (message) => {
    if (message?.type !== 'invoke') return;
    const { id, event, deadline, requestId } = message;
    const context = {
      functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
      functionVersion: '$LATEST',
      invokedFunctionArn: process.env.HARNESS_FUNCTION_ARN,
      memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
      awsRequestId: requestId,
      logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
      logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, deadline - RealDate.now()),
    };
    const invokeStarted = performance.now();
    try {
      const result = await handler(event, context);
      process.send({ type: 'result', id, result: result ?? null, ms: performance.now() - invokeStarted });
    } catch (error) {
      process.send({ type: 'error', id, error: describe(error), ms: performance.now() - invokeStarted });
    }
  });
}
