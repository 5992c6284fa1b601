/**
 * The one Lambda function shape of the service: Node 22 on arm64, bundled by the local esbuild
 * (no Docker) into a single ESM file, with its own log group and a role that may write to that
 * group only. Every route group and consumer is one of these; callers give the entry file, the
 * environment and, where it differs, the timeout.
 */
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type ICommandHooks, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { BundledModule, FunctionAssets } from '../../lib/deployment.ts';

/** The repository root: entries, package-lock.json and tsconfig.json are found from here. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * API Gateway HTTP APIs give up on an integration after 30 s, so an HTTP function that runs longer
 * only burns money on an answer nobody receives.
 */
export const HTTP_TIMEOUT = Duration.seconds(29);

/**
 * esbuild's ESM output has no `require`; some dependencies are CommonJS and call it (or `__require`
 * shims do), so the bundle recreates it from the module's own URL (without an `import` of
 * node:module: see ESM_BUILTINS).
 */
const ESM_REQUIRE_BANNER =
  "const require = process.getBuiltinModule('module').createRequire(import.meta.url);";

/**
 * The Node builtins the bundles import, each reached through a one-line module of
 * `infra/esm-builtins/` (`module.exports = process.getBuiltinModule('node:http')`) rather than by
 * an ESM `import`. Node makes an ESM facade of a builtin by reading every export once, and some
 * exports are lazy getters: node:http's load the fetch and WebSocket implementation (undici),
 * node:process's open stdin, node:crypto's the Web Crypto API. That alone was about 10 ms of every
 * cold start (npm run bench:coldstart). A builtin missing here is imported as before, only slower:
 * test/infra/script-worker.test.ts checks that a bundle imports none.
 */
export const ESM_BUILTINS = [
  'child_process',
  'crypto',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'module',
  'net',
  'os',
  'path',
  'process',
  'stream',
  'stream/promises',
  'stream/web',
  'timers',
  'url',
  'util',
  'vm',
  'worker_threads',
  'zlib',
] as const;

/** esbuild `--alias` values sending each builtin (bare and `node:`) to its module under `root`. */
function builtinAliases(root: string): string[] {
  return ESM_BUILTINS.flatMap((name) => {
    const file = `${root}/infra/esm-builtins/${name.replace('/', '-')}.cjs`;
    return [`${name}=${file}`, `node:${name}=${file}`];
  });
}

export interface ServiceFunctionProps {
  /** Entry file relative to the repository root, e.g. `functions/metadata.ts`; exports `handler`. */
  entry: string;
  /** Shown in the console and used by tests to tell functions apart. */
  description: string;
  environment?: Record<string, string>;
  /** Defaults to HTTP_TIMEOUT. */
  timeout?: Duration;
  /** Defaults to 512 MB: Lambda CPU scales with memory, and cold starts dominate at 128 MB. */
  memorySize?: number;
  /**
   * Ship the QuickJS script worker with the function: set on functions that run decides, which
   * evaluate INLINE, SWITCH and DO_WHILE scripts. See scriptWorkerHooks.
   */
  scriptWorker?: boolean;
  /** Most concurrent executions, reserved from the account's pool; unreserved when absent. */
  reservedConcurrentExecutions?: number;
  /** Package files shipped beside the function's code (lib/deployment.ts FunctionAssets). */
  assets?: FunctionAssets;
  /** Modules bundled as files of their own beside the function's code (lib/deployment.ts BundledModule). */
  modules?: readonly BundledModule[];
}

export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    // The log group is created explicitly (rather than via the deprecated logRetention custom
    // resource) so that retention is plain CloudFormation and the group goes with the stack.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Lambda's default role carries the managed AWSLambdaBasicExecutionRole, which allows creating
    // and writing any log group of the account; this one may write its own group only (the group
    // exists, so nothing needs to create it). The grants of tables, queues and prefixes go here too.
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.description,
    });
    logGroup.grantWrite(role);
    super(scope, id, {
      entry: resolve(PROJECT_ROOT, props.entry),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: resolve(PROJECT_ROOT, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? HTTP_TIMEOUT,
      logGroup,
      role,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      // X-Ray: one trace per invocation (Lambda's own segments; SQS passes the trace on to consumers).
      tracing: Tracing.ACTIVE,
      // No source maps ship (the bundle keeps its function names), so no --enable-source-maps.
      environment: props.environment,
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        // Prefer a package's ESM build; fall back to CommonJS through the require banner.
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        target: 'node22',
        minify: true,
        // No source maps: they were most of each package (2 MB of 2.5 MB), and every function's
        // zipped package stays under 1 MB without them (test/infra/script-worker.test.ts). Function
        // and class names are kept, so stack traces still name the code they pass through.
        sourceMap: false,
        keepNames: true,
        // The pinned AWS SDK (package-lock.json) is bundled, not the runtime's own copy: the SDK
        // version the tests ran against is the one that runs. The local server's embedded store
        // (classic-level, a native module) is never opened on AWS: lib/store/embedded/database.ts
        // imports it when a store is opened, so it stays out.
        externalModules: ['classic-level'],
        // esbuild runs in the project root.
        esbuildArgs: { '--alias': builtinAliases('.') },
        commandHooks: afterBundling(props),
      },
    });
  }
}

/** Shell-quotes one argument for `bash -c`, which runs the bundling hooks. */
const quote = (arg: string): string => `'${arg.replaceAll("'", "'\\''")}'`;

/** Commands run after esbuild, from the bundling input (the project root) into the output. */
type Step = (inputDir: string, outputDir: string) => string[];

/** The hooks of a function: its script workers, its own modules, its package files, in that order. */
function afterBundling(props: ServiceFunctionProps): ICommandHooks | undefined {
  const steps: Step[] = [];
  if (props.scriptWorker) steps.push(scriptWorkers);
  if (props.modules?.length) {
    const modules = props.modules;
    steps.push((inputDir, outputDir) =>
      modules.map((module) => bundleCommand(inputDir, module.entry, `${outputDir}/${module.file}`)),
    );
  }
  if (props.assets) steps.push(packageFiles(props.assets));
  if (steps.length === 0) return undefined;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => steps.flatMap((step) => step(inputDir, outputDir)),
  };
}

/** esbuild bundling one more entry as the function's own bundle is, into `outfile`. */
function bundleCommand(inputDir: string, entry: string, outfile: string): string {
  return [
    `${inputDir}/node_modules/.bin/esbuild`,
    `${inputDir}/${entry}`,
    '--bundle',
    '--platform=node',
    '--format=esm',
    '--target=node22',
    '--main-fields=module,main',
    '--minify',
    '--keep-names',
    '--log-level=warning',
    `--banner:js=${ESM_REQUIRE_BANNER}`,
    '--external:classic-level',
    ...builtinAliases(inputDir).map((alias) => `--alias:${alias}`),
    `--outfile=${outfile}`,
  ]
    .map(quote)
    .join(' ');
}

/**
 * The script evaluator (lib/engine/script/evaluator.ts) runs QuickJS in a worker thread started
 * from the file `quickjs-worker.mjs` next to the function's `index.mjs`, and the QuickJS loader
 * reads `emscripten-module.wasm` next to the module that imports it. esbuild bundles one entry per
 * function, so after it, a hook bundles the worker as a second file and copies the wasm beside it
 * (and bundles the jq worker of JSON_JQ_TRANSFORM, `jq-worker.mjs`, and copies its `jq.wasm`, the
 * same way).
 * Paths are relative to the bundling input (the project root), so the hook is the same whether
 * esbuild runs locally or in CDK's bundling container.
 */
const scriptWorkers: Step = (inputDir, outputDir) => [
  bundleCommand(inputDir, 'lib/engine/script/quickjs-worker.ts', `${outputDir}/quickjs-worker.mjs`),
  // JSON_JQ_TRANSFORM's jq worker (lib/engine/jq/jq.ts), which reads jq.wasm beside it.
  bundleCommand(inputDir, 'lib/engine/jq/jq-worker.ts', `${outputDir}/jq-worker.mjs`),
  ['cp', `${inputDir}/${quickJsWasmPath()}`, `${outputDir}/emscripten-module.wasm`].map(quote).join(' '),
  ['cp', `${inputDir}/${jqWasmPath()}`, `${outputDir}/jq.wasm`].map(quote).join(' '),
];

/**
 * The wasm of the QuickJS variant the worker loads (RELEASE_SYNC), relative to the project root,
 * resolved from quickjs-emscripten itself so it is the copy esbuild bundles the loader of.
 */
function quickJsWasmPath(): string {
  const fromProject = createRequire(resolve(PROJECT_ROOT, 'package.json'));
  const fromQuickJs = createRequire(fromProject.resolve('quickjs-emscripten'));
  return relative(PROJECT_ROOT, fromQuickJs.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'));
}

/** jq's wasm (jq-wasm's `jq.wasm` export), relative to the project root. */
function jqWasmPath(): string {
  return relative(
    PROJECT_ROOT,
    createRequire(resolve(PROJECT_ROOT, 'package.json')).resolve('jq-wasm/jq.wasm'),
  );
}

/**
 * The copying of a package's files into a folder beside the bundle (esbuild bundles code, not the
 * files a module reads at run time, such as Swagger UI's).
 */
function packageFiles(assets: FunctionAssets): Step {
  const fromProject = createRequire(resolve(PROJECT_ROOT, 'package.json'));
  const packageDir = relative(PROJECT_ROOT, dirname(fromProject.resolve(`${assets.package}/package.json`)));
  return (inputDir, outputDir) => [
    ['mkdir', '-p', `${outputDir}/${assets.into}`].map(quote).join(' '),
    ...assets.files.map((file) =>
      ['cp', `${inputDir}/${packageDir}/${file}`, `${outputDir}/${assets.into}/${file}`].map(quote).join(' '),
    ),
  ];
}
