/**
 * The one Lambda function shape of the service: Node 22 on arm64, bundled by the local esbuild
 * (no Docker) into a single ESM file, with its own log group. Every route group and consumer is
 * one of these; callers give the entry file, the environment and, where it differs, the timeout.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** The repository root: entries, package-lock.json and tsconfig.json are found from here. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * API Gateway HTTP APIs give up on an integration after 30 s, so an HTTP function that runs longer
 * only burns money on an answer nobody receives.
 */
export const HTTP_TIMEOUT = Duration.seconds(29);

/**
 * esbuild's ESM output has no `require`; some dependencies are CommonJS and call it (or `__require`
 * shims do), so the bundle recreates it from the module's own URL.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

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
}

export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    // The log group is created explicitly (rather than via the deprecated logRetention custom
    // resource) so that retention is plain CloudFormation and the group goes with the stack.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
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
      environment: {
        ...props.environment,
        // Stack traces point into the TypeScript sources rather than the minified bundle.
        NODE_OPTIONS: '--enable-source-maps',
      },
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        // Prefer a package's ESM build; fall back to CommonJS through the require banner.
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // The Node 22 runtime ships AWS SDK v3; bundling it again only slows cold starts.
        externalModules: ['@aws-sdk/*'],
      },
    });
  }
}
