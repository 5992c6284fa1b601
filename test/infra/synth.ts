/**
 * What the template assertions of test/infra share: temporary directories removed after the file,
 * a CDK app that synthesizes without running esbuild, a stand-in for ui/dist, and the properties
 * of every private encrypted bucket of the stack.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll } from 'vitest';

/** A maker of temporary directories, each removed after the test file (it registers an afterAll). */
export function useTempDirs(): (prefix: string) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

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
