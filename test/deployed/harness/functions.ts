/**
 * Lambda execution environments: each function of the template runs in fresh Node processes
 * (test/deployed/harness/bootstrap.mjs) whose working directory is the function's own asset and
 * whose environment is the template's, plus what the Lambda runtime sets. One process runs one
 * invocation at a time; a function gets another process when all of its are busy, up to its
 * concurrency. An invocation past the function's timeout is ended as Lambda ends it: the process is
 * killed and the invocation fails with `Sandbox.Timedout`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { HarnessClock } from './clock.ts';
import { REGION } from './template.ts';

export interface FunctionSpec {
  logicalId: string;
  name: string;
  arn: string;
  roleName: string;
  /** The asset directory: LAMBDA_TASK_ROOT. */
  taskRoot: string;
  handler: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** The template's environment, resolved. */
  environment: Record<string, string>;
  /** Reserved concurrency, when the template reserves it. */
  reserved?: number;
}

export interface InvocationError {
  errorType: string;
  errorMessage: string;
  stack?: string[];
}

export type InvokeResult = { ok: true; result: unknown } | { ok: false; error: InvocationError };

/** The AWS endpoint and credentials one function's processes are given. */
export interface RuntimeAccess {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface ColdStart {
  function: string;
  /** Module load: from process start to the handler imported. */
  initMs: number;
  /** The first invocation of that process. */
  firstInvokeMs?: number;
}

const BOOTSTRAP = join(import.meta.dirname, 'bootstrap.mjs');

/**
 * Lambda runs the functions on Node.js 22, so the harness does too: on the Node running it, which
 * npm scripts take from the project's own `node` package.
 */
function lambdaNode(): string {
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 22) {
    throw new Error(
      `The functions run on Node 22, as on Lambda; this is Node ${process.version} (run it through npm)`,
    );
  }
  return process.execPath;
}

/** How many processes one function may run at once here, unless its reserved concurrency is lower. */
const MAX_ENVIRONMENTS = 4;

interface Environment {
  child: ChildProcess;
  ready: Promise<void>;
  busy: boolean;
  invocations: number;
  cold?: ColdStart;
  pending?: { id: string; settle: (result: InvokeResult, ms?: number) => void };
}

export class LambdaFunction {
  readonly coldStarts: ColdStart[] = [];
  readonly logs: string[] = [];
  private readonly environments: Environment[] = [];
  private readonly waiting: (() => void)[] = [];
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor(
    readonly spec: FunctionSpec,
    private readonly access: RuntimeAccess,
    private readonly echo: boolean,
    private readonly clock?: HarnessClock,
  ) {
    // Every process keeps the harness clock's time (bootstrap.mjs).
    this.unsubscribe =
      clock?.onAdvance(() => {
        for (const { child } of this.environments) {
          if (child.connected) child.send({ type: 'clock', offset: clock.ahead });
        }
      }) ?? (() => {});
  }

  async invoke(event: unknown): Promise<InvokeResult> {
    const environment = await this.acquire();
    try {
      return await this.run(environment, event);
    } finally {
      environment.busy = false;
      this.waiting.shift()?.();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    for (const environment of this.environments) environment.child.kill('SIGKILL');
    this.environments.length = 0;
  }

  private async acquire(): Promise<Environment> {
    for (;;) {
      if (this.stopped) throw new Error(`${this.spec.name} is stopped`);
      const idle = this.environments.find((environment) => !environment.busy);
      if (idle) {
        idle.busy = true;
        await idle.ready;
        return idle;
      }
      if (this.environments.length < Math.min(MAX_ENVIRONMENTS, this.spec.reserved ?? MAX_ENVIRONMENTS)) {
        const fresh = this.spawn();
        fresh.busy = true;
        await fresh.ready;
        return fresh;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private spawn(): Environment {
    const { spec, access } = this;
    const child = fork(BOOTSTRAP, [], {
      cwd: spec.taskRoot,
      // Only what the Lambda runtime sets, the template's variables and the stand-in endpoint.
      env: {
        PATH: '/usr/local/bin:/usr/bin:/bin',
        LANG: 'en_US.UTF-8',
        TZ: ':UTC',
        // The runtime's own module paths; nothing is installed there here, as nothing should be needed.
        NODE_PATH: '/opt/nodejs/node22/node_modules:/opt/nodejs/node_modules:/var/runtime/node_modules',
        LAMBDA_TASK_ROOT: spec.taskRoot,
        LAMBDA_RUNTIME_DIR: '/var/runtime',
        _HANDLER: spec.handler,
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        AWS_REGION: REGION,
        AWS_DEFAULT_REGION: REGION,
        AWS_LAMBDA_FUNCTION_NAME: spec.name,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(spec.memoryMb),
        AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${spec.name}`,
        AWS_LAMBDA_LOG_STREAM_NAME: `harness/${randomUUID()}`,
        AWS_ACCESS_KEY_ID: access.accessKeyId,
        AWS_SECRET_ACCESS_KEY: access.secretAccessKey,
        AWS_SESSION_TOKEN: `session-${spec.logicalId}`,
        AWS_ENDPOINT_URL: access.endpoint,
        HARNESS_FUNCTION_ARN: spec.arn,
        HARNESS_CLOCK_OFFSET: String(this.clock?.ahead ?? 0),
        ...spec.environment,
      },
      execPath: lambdaNode(),
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const environment: Environment = {
      child,
      busy: false,
      invocations: 0,
      ready: new Promise<void>((resolve, reject) => {
        const onMessage = (message: { type: string; initMs?: number; error?: InvocationError }) => {
          if (message.type === 'ready') {
            environment.cold = { function: spec.name, initMs: message.initMs ?? 0 };
            this.coldStarts.push(environment.cold);
            resolve();
          } else if (message.type === 'init-error') {
            reject(
              new Error(
                `${spec.name}: init failed: ${message.error?.errorType}: ${message.error?.errorMessage}`,
              ),
            );
          }
        };
        child.on('message', onMessage);
        child.once('exit', (code) => reject(new Error(`${spec.name}: process exited during init (${code})`)));
      }),
    };
    environment.ready.catch(() => this.discard(environment));
    child.on(
      'message',
      (message: { type: string; id?: string; result?: unknown; error?: InvocationError; ms?: number }) => {
        const pending = environment.pending;
        if (!pending || message.id !== pending.id) return;
        if (message.type === 'result') pending.settle({ ok: true, result: message.result }, message.ms);
        if (message.type === 'error')
          pending.settle({ ok: false, error: message.error as InvocationError }, message.ms);
      },
    );
    child.on('exit', (code, signal) => {
      this.discard(environment);
      environment.pending?.settle({
        ok: false,
        error: { errorType: 'Runtime.ExitError', errorMessage: `RequestId: exited (${code ?? signal})` },
      });
    });
    const collect = (stream: NodeJS.ReadableStream | null) => {
      let rest = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) {
          this.logs.push(line);
          if (this.echo) process.stderr.write(`[${spec.logicalId}] ${line}\n`);
        }
      });
    };
    collect(child.stdout);
    collect(child.stderr);
    this.environments.push(environment);
    return environment;
  }

  private run(environment: Environment, event: unknown): Promise<InvokeResult> {
    const id = randomUUID();
    const deadline = Date.now() + this.spec.timeoutSeconds * 1000;
    return new Promise<InvokeResult>((resolve) => {
      const timer = setTimeout(() => {
        this.discard(environment);
        environment.child.kill('SIGKILL');
        settle({
          ok: false,
          error: {
            errorType: 'Sandbox.Timedout',
            errorMessage: `Task timed out after ${this.spec.timeoutSeconds.toFixed(2)} seconds`,
          },
        });
      }, deadline - Date.now());
      const settle = (result: InvokeResult, ms?: number) => {
        if (environment.pending?.id !== id) return;
        clearTimeout(timer);
        environment.pending = undefined;
        if (environment.invocations === 0 && environment.cold) environment.cold.firstInvokeMs = ms;
        environment.invocations += 1;
        resolve(result);
      };
      environment.pending = { id, settle };
      environment.child.send({ type: 'invoke', id, event, deadline, requestId: id });
    });
  }

  private discard(environment: Environment): void {
    const at = this.environments.indexOf(environment);
    if (at >= 0) this.environments.splice(at, 1);
    this.waiting.shift()?.();
  }
}
