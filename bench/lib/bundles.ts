/**
 * Every function's deployment package, measured: the stack is synthesized with real bundling (the
 * local esbuild) into a temporary directory, and each function's asset directory is sized as the
 * zip CDK uploads (infra/constructs/package-size.ts). The cold-start benchmark (bench/cold-start.ts)
 * loads the same asset directories.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { type PackageSize, packageSize } from '../../infra/constructs/package-size.ts';
import { ConductorStack } from '../../infra/stack.ts';

export interface FunctionBundle extends PackageSize {
  name: string;
}

/** A CloudFormation value: a string, or an intrinsic (`{Ref}`, `{Fn::GetAtt}`, ...). */
export type TemplateValue = string | number | boolean | { [key: string]: unknown };

/** One Lambda function of the synthesized template, with its bundled code on disk. */
export interface SynthesizedFunction {
  /** Logical id without CDK's hash suffix (`TimerFunction`). */
  name: string;
  logicalId: string;
  description: string;
  /** `index.handler`. */
  handler: string;
  /** The asset directory: index.mjs and whatever ships beside it. */
  dir: string;
  /** Its environment as the template gives it (names of tables, queues... are intrinsics). */
  environment: Record<string, TemplateValue>;
  memorySize?: number;
  /** `nodejs22.x` for the service's own; CDK's BucketDeployment function is Python. */
  runtime: string;
}

interface Resource {
  Type: string;
  Properties?: {
    Description?: string;
    Handler?: string;
    Runtime?: string;
    MemorySize?: number;
    Code?: { S3Key?: string };
    Environment?: { Variables?: Record<string, TemplateValue> };
  };
}

/**
 * Synthesizes into `outdir`, with real bundling unless `bundling` is false (then no asset directory
 * holds code), the stack with every function there is: all gated capabilities, both stream
 * consumers (the search indexer and the cleaner of expired runs) and the events capability's
 * outside sources; authentication on (the default).
 */
export function synthesizeFunctions(outdir: string, { bundling = true } = {}): SynthesizedFunction[] {
  const app = new App({ outdir, context: bundling ? {} : { 'aws:cdk:bundling-stacks': [] } });
  new ConductorStack(app, 'Bench', {
    gates: { scheduler: true, fileStorage: true, messageQueue: true, agents: false },
    searchBackend: 'opensearch',
    properties: { 'service.workflow.retention': '30d' },
    outsideSources: { events: [{ type: 'sqs', queue: 'orders' }] },
  });
  app.synth();
  const template = JSON.parse(readFileSync(join(outdir, 'Bench.template.json'), 'utf8')) as {
    Resources: Record<string, Resource>;
  };
  const out: SynthesizedFunction[] = [];
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    const key = resource.Properties?.Code?.S3Key;
    if (resource.Type !== 'AWS::Lambda::Function' || !key?.endsWith('.zip')) continue;
    const properties = resource.Properties ?? {};
    out.push({
      name: logicalId.replace(/[0-9A-F]{8}$/, ''),
      logicalId,
      description: properties.Description ?? '',
      handler: properties.Handler ?? 'index.handler',
      dir: join(outdir, `asset.${key.slice(0, -'.zip'.length)}`),
      environment: properties.Environment?.Variables ?? {},
      memorySize: properties.MemorySize,
      runtime: properties.Runtime ?? '',
    });
  }
  return out;
}

export function measureBundles(): FunctionBundle[] {
  const outdir = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  try {
    return synthesizeFunctions(outdir)
      .map(({ name, dir }) => ({ name, ...packageSize(dir) }))
      .sort((a, b) => b.zippedBytes - a.zippedBytes);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
