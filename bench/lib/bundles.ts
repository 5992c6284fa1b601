/**
 * Every function's deployment package, measured: the stack is synthesized with real bundling (the
 * local esbuild) into a temporary directory, and each function's asset directory is sized as the
 * zip CDK uploads (infra/constructs/package-size.ts).
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

interface Resource {
  Type: string;
  Properties?: { Description?: string; Code?: { S3Key?: string } };
}

export function measureBundles(): FunctionBundle[] {
  const outdir = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  try {
    const app = new App({ outdir });
    // Every function there is: all gated capabilities, and both stream consumers (the search
    // indexer and the cleaner of expired runs).
    new ConductorStack(app, 'Bench', {
      gates: { scheduler: true, fileStorage: true, messageQueue: true, agents: false },
      searchBackend: 'opensearch',
      properties: { 'service.workflow.retention': '30d' },
    });
    app.synth();
    const template = JSON.parse(readFileSync(join(outdir, 'Bench.template.json'), 'utf8')) as {
      Resources: Record<string, Resource>;
    };
    const out: FunctionBundle[] = [];
    for (const [id, resource] of Object.entries(template.Resources)) {
      const key = resource.Properties?.Code?.S3Key;
      if (resource.Type !== 'AWS::Lambda::Function' || !key?.endsWith('.zip')) continue;
      const dir = join(outdir, `asset.${key.slice(0, -'.zip'.length)}`);
      out.push({ name: id.replace(/[0-9A-F]{8}$/, ''), ...packageSize(dir) });
    }
    return out.sort((a, b) => b.zippedBytes - a.zippedBytes);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
