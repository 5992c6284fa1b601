/**
 * The pieces of the cold-start benchmark (bench/cold-start.ts): what kind each synthesized function
 * is and the cheap event of its kind, its environment with the template's intrinsics made local
 * values, and one cold start of it in a fresh Node process (module load, then the first
 * invocation), measured inside that process.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pascalCase } from '../../infra/constructs/names.ts';
import { CAPABILITIES, CONSUMERS, JOBS, STREAM_CONSUMERS } from '../../lib/capabilities.ts';
import { envNameOf } from '../../lib/config/load.ts';
import { type TableSpec, tablePropertyName } from '../../lib/store/dynamodb/tables.ts';
import type { SynthesizedFunction, TemplateValue } from './bundles.ts';

export type FunctionKind = 'route-group' | 'consumer' | 'job' | 'stream-consumer' | 'outside-sources';

export interface FunctionRole {
  kind: FunctionKind;
  /** The capability, consumer, job or stream consumer it runs. */
  of: string;
}

/** Each function's kind, from the name the stack gives it (`${pascalCase(name)}Function`). */
export function roleOf(fn: Pick<SynthesizedFunction, 'name'>): FunctionRole | undefined {
  const named = (kind: FunctionKind, names: readonly string[]) =>
    names.filter((name) => `${pascalCase(name)}Function` === fn.name).map((of) => ({ kind, of }));
  return [
    ...named(
      'route-group',
      CAPABILITIES.map((c) => c.name),
    ),
    ...named(
      'consumer',
      CONSUMERS.map((c) => c.name),
    ),
    ...named(
      'job',
      JOBS.map((j) => j.name),
    ),
    ...named(
      'stream-consumer',
      STREAM_CONSUMERS.map((c) => c.name),
    ),
    ...named(
      'outside-sources',
      CAPABILITIES.flatMap((c) => (c.outsideSources ? [c.outsideSources.function.name] : [])),
    ),
  ][0];
}

/** A run id no run has: reads of it find nothing, and nothing is written. */
export const ABSENT_RUN = 'cold-start-absent-run';

/**
 * The cheapest request of each route group that still goes through authentication and the store
 * (a read that finds nothing, or the health check); a group not listed asks for GET /health, which
 * its router answers 404.
 */
const ROUTE_REQUESTS: Readonly<Record<string, { method: string; path: string; body?: string }>> = {
  system: { method: 'GET', path: '/health' },
  metadata: { method: 'GET', path: '/api/metadata/taskdefs' },
  workflows: { method: 'GET', path: `/api/workflow/${ABSENT_RUN}/status` },
  tasks: { method: 'GET', path: '/api/tasks/cold-start-absent-task' },
  schemas: { method: 'GET', path: '/api/schema' },
  scheduler: { method: 'GET', path: '/api/scheduler/schedules' },
  messages: { method: 'POST', path: `/api/workflow/${ABSENT_RUN}/messages`, body: '{"hello":"world"}' },
  events: { method: 'GET', path: '/api/event' },
  files: { method: 'GET', path: `/api/files/${ABSENT_RUN}/00000000-0000-4000-8000-000000000000` },
};

/**
 * Consumers given one harmless record (a decide, or a forwarded wake-up, of a run that does not
 * exist); the others get an empty batch.
 */
const CONSUMER_BODIES: Readonly<Record<string, unknown>> = {
  decider: { workflowId: ABSENT_RUN },
  timer: { workflowId: ABSENT_RUN },
};

/** What the first invocation of a function is, in words (the benchmark prints it). */
export function describeEvent(role: FunctionRole): string {
  switch (role.kind) {
    case 'route-group': {
      const request = ROUTE_REQUESTS[role.of] ?? { method: 'GET', path: '/health' };
      return `${request.method} ${request.path}`;
    }
    case 'consumer':
      return role.of in CONSUMER_BODIES ? 'one record' : '{Records: []}';
    case 'job':
      return 'scheduled event';
    default:
      return '{Records: []}';
  }
}

/** The event of a function's first invocation: `token` goes in X-Authorization. */
export function eventOf(role: FunctionRole, token: string, now = Date.now()): unknown {
  const region = 'us-east-1';
  const account = '000000000000';
  switch (role.kind) {
    case 'route-group': {
      const request = ROUTE_REQUESTS[role.of] ?? { method: 'GET', path: '/health' };
      return {
        version: '2.0',
        routeKey: '$default',
        rawPath: request.path,
        rawQueryString: '',
        headers: {
          accept: 'application/json',
          host: 'cold-start.execute-api.us-east-1.amazonaws.com',
          'user-agent': 'cold-start-bench',
          'x-authorization': token,
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        requestContext: {
          accountId: account,
          apiId: 'cold-start',
          domainName: 'cold-start.execute-api.us-east-1.amazonaws.com',
          domainPrefix: 'cold-start',
          http: {
            method: request.method,
            path: request.path,
            protocol: 'HTTP/1.1',
            sourceIp: '127.0.0.1',
            userAgent: 'cold-start-bench',
          },
          requestId: `cold-start-${now}`,
          routeKey: '$default',
          stage: '$default',
          time: new Date(now).toISOString(),
          timeEpoch: now,
        },
        body: request.body,
        isBase64Encoded: false,
      };
    }
    case 'consumer': {
      const body = CONSUMER_BODIES[role.of];
      if (body === undefined) return { Records: [] };
      return {
        Records: [
          {
            messageId: `cold-start-${now}`,
            receiptHandle: 'cold-start',
            body: JSON.stringify(body),
            attributes: {
              ApproximateReceiveCount: '1',
              SentTimestamp: String(now),
              SenderId: account,
              ApproximateFirstReceiveTimestamp: String(now),
            },
            messageAttributes: {},
            md5OfBody: '',
            eventSource: 'aws:sqs',
            eventSourceARN: `arn:aws:sqs:${region}:${account}:${role.of}`,
            awsRegion: region,
          },
        ],
      };
    }
    case 'job':
      return {
        version: '0',
        id: `cold-start-${now}`,
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account,
        time: new Date(now).toISOString(),
        region,
        resources: [`arn:aws:events:${region}:${account}:rule/${role.of}`],
        detail: {},
      };
    default:
      return { Records: [] };
  }
}

/**
 * A function's environment with every intrinsic made a local value: a `Ref` is the resource's
 * logical id (so table names are the tables' logical ids, the secret's name the secret's), queue
 * URLs and the OpenSearch endpoint point at `endpoint`, the region is us-east-1.
 */
export function localEnvironment(
  environment: Readonly<Record<string, TemplateValue>>,
  endpoint: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    const local = resolveIntrinsic(value);
    if (name.endsWith('_QUEUE_URL')) out[name] = `${endpoint}/000000000000/${local}`;
    else if (name === 'SERVICE_SEARCH_OPENSEARCH_ENDPOINT') out[name] = endpoint;
    else out[name] = local;
  }
  return out;
}

function resolveIntrinsic(value: TemplateValue): string {
  if (typeof value !== 'object' || value === null) return String(value);
  const [[fn, arg]] = Object.entries(value) as [[string, unknown]];
  if (fn === 'Ref') {
    if (arg === 'AWS::Region') return 'us-east-1';
    if (arg === 'AWS::AccountId') return '000000000000';
    if (arg === 'AWS::Partition') return 'aws';
    if (arg === 'AWS::URLSuffix') return 'amazonaws.com';
    return String(arg);
  }
  if (fn === 'Fn::GetAtt') return (arg as string[]).join('.');
  if (fn === 'Fn::Join') {
    const [separator, parts] = arg as [string, TemplateValue[]];
    return parts.map(resolveIntrinsic).join(separator);
  }
  throw new Error(`Cannot resolve ${fn} in a function's environment`);
}

/** The table names functions are told, by table id: the tables to create before they start. */
export function tableNamesIn(
  environments: readonly Readonly<Record<string, string>>[],
  specs: readonly TableSpec[],
): Record<string, string> {
  const names: Record<string, string> = {};
  for (const spec of specs) {
    const variable = envNameOf(tablePropertyName(spec));
    for (const environment of environments) {
      const name = environment[variable];
      if (name !== undefined) names[spec.id] = name;
    }
  }
  return names;
}

/** One cold start: milliseconds to import the bundle, and to answer the first invocation. */
export interface ColdStart {
  loadMs: number;
  invokeMs: number;
  /** The first invocation's answer, in short: an HTTP status, failed batch items, or a summary. */
  answer: string;
  /** The first invocation threw (its message), or the process failed (its stderr's end). */
  error?: string;
}

/**
 * Runs in the fresh process, from a directory outside the repository: imports the function's
 * `index.mjs` (the handler file), then calls the handler once, timing both, and writes the
 * figures to fd 3 (stdout carries the function's metric lines, stderr its log). Node builtins are
 * reached through process.getBuiltinModule, so the runner loads none of the modules the bundle
 * would otherwise pay for.
 */
const RUNNER = `
const { readFileSync, writeSync } = process.getBuiltinModule('node:fs');
const { pathToFileURL } = process.getBuiltinModule('node:url');
const [file, exportName, eventFile] = process.argv.slice(2);
const event = JSON.parse(readFileSync(eventFile, 'utf8'));
const context = {
  awsRequestId: 'cold-start-' + Date.now(),
  functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
  functionVersion: '$LATEST',
  memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 30000,
};
const report = (figures) => { writeSync(3, JSON.stringify(figures)); process.exit(0); };
const started = performance.now();
const module = await import(pathToFileURL(process.cwd() + '/' + file).href);
const loaded = performance.now();
try {
  const result = await module[exportName](event, context);
  const answered = performance.now();
  const answer = result && typeof result === 'object' && 'statusCode' in result
    ? String(result.statusCode)
    : result && typeof result === 'object' && Array.isArray(result.batchItemFailures)
      ? result.batchItemFailures.length + ' failed'
      : JSON.stringify(result ?? null).slice(0, 40);
  report({ loadMs: loaded - started, invokeMs: answered - loaded, answer });
} catch (error) {
  report({ loadMs: loaded - started, invokeMs: performance.now() - loaded, answer: 'threw', error: String(error?.stack ?? error).slice(0, 500) });
}
`;

/** Where cold starts run: a temporary directory outside the repository, so no node_modules resolves. */
export class ColdStartSandbox {
  readonly root = mkdtempSync(join(tmpdir(), 'cold-start-'));
  private readonly runner = join(this.root, 'runner.mjs');

  /** `nodeOptions`: flags for every cold start's process (e.g. --cpu-prof). */
  constructor(
    private readonly node: string,
    private readonly nodeOptions: readonly string[] = [],
  ) {
    writeFileSync(this.runner, RUNNER);
  }

  /** Copies the function's package (as Lambda unpacks it into /var/task) into the sandbox. */
  install(fn: SynthesizedFunction, label = 'this'): string {
    const dir = join(this.root, label, fn.name);
    cpSync(fn.dir, dir, { recursive: true });
    return dir;
  }

  /** One cold start of the function installed in `dir`, with exactly `env` as its environment. */
  run(dir: string, handler: string, event: unknown, env: Record<string, string>): Promise<ColdStart> {
    const dot = handler.lastIndexOf('.');
    const file = `${handler.slice(0, dot)}.mjs`;
    const eventFile = join(this.root, `event-${process.hrtime.bigint()}.json`);
    writeFileSync(eventFile, JSON.stringify(event));
    return new Promise((resolve) => {
      const child = spawn(
        this.node,
        [...this.nodeOptions, this.runner, file, handler.slice(dot + 1), eventFile],
        {
          cwd: dir,
          env,
          stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      let figures = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-4000);
      });
      child.stdio[3]?.on('data', (chunk: Buffer) => {
        figures += chunk.toString('utf8');
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        rmSync(eventFile, { force: true });
        if (figures !== '') {
          const parsed = JSON.parse(figures) as ColdStart;
          resolve(parsed.error ? { ...parsed, error: `${parsed.error}\n${lastLines(stderr)}` } : parsed);
          return;
        }
        resolve({
          loadMs: Number.NaN,
          invokeMs: Number.NaN,
          answer: `exit ${code}`,
          error: lastLines(stderr),
        });
      });
    });
  }

  close(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

const lastLines = (text: string): string => text.trim().split('\n').slice(-6).join('\n');
