/**
 * Global setup of the `deployed` vitest project: one `cdk synth` of the stack (the UI built first
 * when stale, since the stack ships it), shared by every suite of the project and removed at the
 * end. The context turns every gate on and lets the HTTP task reach this machine's echo server.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { ensureUiBuilt } from '../../ui/build.ts';
import { synthesize } from './harness/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cloud assembly directory `cdk synth` wrote (template and function assets). */
    deployedAssembly: string;
  }
}

/** The `-c` context of the synthesized stack. */
export const DEPLOYED_CONTEXT: Record<string, string> = {
  schedulerEnabled: 'true',
  fileStorageEnabled: 'true',
  messageQueueEnabled: 'true',
  'service.http-task.allow-private-networks': 'true',
};

let dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  await ensureUiBuilt();
  const assembly = await synthesize(DEPLOYED_CONTEXT);
  dir = assembly.dir;
  project.provide('deployedAssembly', dir);
}

export async function teardown(): Promise<void> {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
