/**
 * What the template assertions of test/infra share: a CDK app that synthesizes without running
 * esbuild, a stand-in for ui/dist, and the properties of every private encrypted bucket of the stack.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';

/** An app synthesizing into `outdir` with bundling skipped (no esbuild run). */
export function unbundledApp(outdir: string): App {
  return new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
}

/**
 * A stand-in for ui/dist in `dir`, so template assertions need no UI build: an index.html and an
 * assets/ directory holding `assets` (file name to content).
 */
export function fakeUiDist(dir: string, assets: Record<string, string> = {}): string {
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  for (const [name, content] of Object.entries(assets)) writeFileSync(join(dir, 'assets', name), content);
  return dir;
}

/** The properties of a bucket that blocks all public access and encrypts with S3-managed keys. */
export const PRIVATE_ENCRYPTED_BUCKET = {
  PublicAccessBlockConfiguration: {
    BlockPublicAcls: true,
    BlockPublicPolicy: true,
    IgnorePublicAcls: true,
    RestrictPublicBuckets: true,
  },
  BucketEncryption: {
    ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
  },
};
