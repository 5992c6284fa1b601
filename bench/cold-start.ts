/**
 * Cold starts of every Lambda function (`npm run bench:coldstart`): the stack is synthesized with
 * real bundling into a temporary directory (every function there is: all gates on, both stream
 * consumers, the events capability's outside sources, authentication on), and each function's
 * package is copied into a directory outside the repository, as Lambda unpacks it into /var/task,
 * so nothing but the package resolves. Then, in a fresh Node 22 process per cold start, with the
 * function's environment from the template (intrinsics made local names) and every AWS client
 * pointed at a local endpoint (AWS_ENDPOINT_URL: DynamoDB is an in-process dynalite, Secrets
 * Manager answers the API keys, SQS sends are accepted; bench/lib/fake-aws.ts):
 * - module load: `import()` of the handler's index.mjs;
 * - first invocation: the handler called once with a cheap event of its kind, which builds the
 *   function's dependencies and answers: a route group one authenticated request (GET /health or
 *   the group's cheapest read, bench/lib/cold-start.ts), the decider and the timer one record of a
 *   run that does not exist, other consumers, the stream consumers and the outside sources an
 *   empty batch, the periodic jobs an EventBridge scheduled event.
 * Each function is started --runs times (default 5), round after round; medians are printed, with
 * the zipped package size (infra/constructs/package-size.ts) and the first invocation's answer and
 * AWS calls. Aim: module load + first invocation ≤ 60 ms per function on a 2-core machine.
 * Options: --runs=5 --only=TimerFunction,DeciderFunction --cpu-prof=DIR (a CPU profile of every cold
 * start into DIR, named by process id) --baseline=DIR (another checkout of this repository, e.g. a
 * git worktree of an earlier commit: its functions are measured too, each cold start right after
 * the same function's here, so both see the same machine load, and printed in a second table)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageSize } from '../infra/constructs/package-size.ts';
import { ALL_TABLES } from '../lib/catalog.ts';
import { tableNamesFrom } from '../lib/runtime/store-bundle.ts';
import { issueToken } from '../lib/security/tokens.ts';
import { startEmbeddedDynamo } from '../lib/store/dynamodb/embedded.ts';
import { dynamoSession } from '../lib/store/dynamodb/index.ts';
import { Args } from './lib/args.ts';
import type { SynthesizedFunction, synthesizeFunctions } from './lib/bundles.ts';
import {
  type ColdStart,
  ColdStartSandbox,
  describeEvent,
  eventOf,
  type FunctionRole,
  localEnvironment,
  roleOf,
  tableNamesIn,
} from './lib/cold-start.ts';
import { startFakeAws } from './lib/fake-aws.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, percentile, table } from './lib/stats.ts';

const args = new Args();
const runs = args.int('runs', 5, 1);
const only = new Set(
  args
    .string('only', '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== ''),
);
const profiles = args.string('cpu-prof', '');
const baseline = args.string('baseline', '');
const ROOT = resolve(import.meta.dirname, '..');
const AIM_MS = 60;

/** Lambda's runtime is Node 22: this process's Node when it is one, else the repository's node@22. */
function node22(): string {
  if (process.versions.node.startsWith('22.')) return process.execPath;
  const bundled = resolve(import.meta.dirname, '../node_modules/.bin/node');
  const version = execFileSync(bundled, ['--version'], { encoding: 'utf8' }).trim();
  if (!version.startsWith('v22.')) throw new Error(`Node 22 is needed; ${bundled} is ${version}`);
  return bundled;
}

interface Measured {
  fn: SynthesizedFunction;
  role: FunctionRole;
  dir: string;
  env: Record<string, string>;
  zippedBytes: number;
  starts: ColdStart[];
  calls: Record<string, number>;
}

const node = node22();
const outdirs: string[] = [];
const key = { id: 'cold-start-key', secret: 'cold-start-secret-0123456789abcdef' };
const dynamo = await startEmbeddedDynamo();
const fake = await startFakeAws({ dynamodb: dynamo.endpoint, secretString: JSON.stringify(key) });
const sandbox = new ColdStartSandbox(
  node,
  profiles === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${resolve(profiles)}`, '--cpu-prof-interval=100'],
);

/** Synthesizes a checkout's stack (this one, or the baseline's) with bundling, into a temporary directory. */
async function synthesized(root: string): Promise<SynthesizedFunction[]> {
  const outdir = mkdtempSync(join(tmpdir(), 'bench-coldstart-cdk-'));
  outdirs.push(outdir);
  const bundles = (await import(pathToFileURL(join(root, 'bench/lib/bundles.ts')).href)) as {
    synthesizeFunctions: typeof synthesizeFunctions;
  };
  return bundles
    .synthesizeFunctions(outdir)
    .filter((fn) => fn.runtime.startsWith('nodejs') && (only.size === 0 || only.has(fn.name)));
}

/** Each function installed in the sandbox (under `label`), with the environment Lambda would give it. */
function prepared(functions: readonly SynthesizedFunction[], label: string): Measured[] {
  return functions.map((fn) => {
    const role = roleOf(fn);
    if (role === undefined) throw new Error(`${fn.name}: not a route group, job or consumer the bench knows`);
    const dir = sandbox.install(fn, label);
    return {
      fn,
      role,
      dir,
      env: {
        ...localEnvironment(fn.environment, fake.endpoint),
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: sandbox.root,
        TZ: ':UTC',
        LANG: 'en_US.UTF-8',
        AWS_REGION: 'us-east-1',
        AWS_DEFAULT_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'cold-start',
        AWS_SECRET_ACCESS_KEY: 'cold-start',
        AWS_SESSION_TOKEN: 'cold-start',
        AWS_ENDPOINT_URL: fake.endpoint,
        AWS_CONFIG_FILE: join(sandbox.root, 'no-aws-config'),
        AWS_SHARED_CREDENTIALS_FILE: join(sandbox.root, 'no-aws-credentials'),
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        AWS_LAMBDA_FUNCTION_NAME: fn.name,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize ?? 128),
        LAMBDA_TASK_ROOT: dir,
      },
      zippedBytes: packageSize(fn.dir).zippedBytes,
      starts: [],
      calls: {},
    };
  });
}

function report(title: string, measured: readonly Measured[]): void {
  console.log(heading(`${title}: median of ${runs}; load average ${loadAverage()}`));
  const median = (values: number[]) => percentile(values, 50);
  const rows = measured.map((m) => {
    const total = median(m.starts.map((s) => s.loadMs + s.invokeMs));
    return [
      m.fn.name,
      describeEvent(m.role),
      fmt(m.zippedBytes / 1024, 0),
      fmt(median(m.starts.map((s) => s.loadMs)), 1),
      fmt(median(m.starts.map((s) => s.invokeMs)), 1),
      fmt(total, 1),
      total <= AIM_MS ? 'yes' : 'no',
      [...new Set(m.starts.map((s) => s.answer))].join(', '),
      Object.entries(m.calls)
        .map(([target, count]) => `${target.replace(/^.*\./, '')}×${count}`)
        .join(' '),
    ];
  });
  const header = [
    'function',
    'first invocation',
    'zip KB',
    'load ms',
    'invoke ms',
    'total ms',
    `≤ ${AIM_MS}`,
  ];
  console.log(table([...header, 'answer', 'AWS calls'], rows));
}

try {
  console.log('Synthesizing the stack with bundling…');
  const variants = [{ title: 'Cold starts', measured: prepared(await synthesized(ROOT), 'this') }];
  if (baseline !== '') {
    console.log(`Synthesizing the baseline's stack (${baseline})…`);
    variants.push({
      title: `Baseline ${baseline}`,
      measured: prepared(await synthesized(resolve(baseline)), 'baseline'),
    });
  }
  const all = variants.flatMap((variant) => variant.measured);
  // The tables the functions are told of, created once in dynalite under those names.
  const session = dynamoSession(dynamo.client());
  await session.createTables(
    tableNamesFrom(
      'cold-start-',
      tableNamesIn(
        all.map((m) => m.env),
        ALL_TABLES,
      ),
    ),
    ALL_TABLES,
  );
  session.doc.destroy();
  const token = issueToken(key, Date.now(), 3_600_000);

  console.log(
    `${variants[0]?.measured.length} functions, ${runs} cold starts each${baseline ? ', interleaved with the baseline' : ''}, on Node ${node === process.execPath ? process.version : node}`,
  );
  for (let run = 0; run < runs; run++) {
    for (const m of variants[0]?.measured ?? []) {
      // The same function of each checkout, one after the other: the machine's load is the same for both.
      for (const variant of variants) {
        const subject = variant.measured.find((other) => other.fn.name === m.fn.name);
        if (subject === undefined) continue;
        fake.reset();
        const start = await sandbox.run(
          subject.dir,
          subject.fn.handler,
          eventOf(subject.role, token),
          subject.env,
        );
        subject.starts.push(start);
        subject.calls = fake.calls();
        if (start.error)
          console.error(`${variant.title} ${subject.fn.name} (run ${run + 1}): ${start.error}`);
      }
    }
  }
  for (const variant of variants) report(variant.title, variant.measured);
  const failed = all.filter((m) => m.starts.some((s) => s.error));
  if (failed.length > 0) {
    console.error(`\nFailed cold starts: ${failed.map((m) => m.fn.name).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  sandbox.close();
  await fake.close();
  await dynamo.close();
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
}
