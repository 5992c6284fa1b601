/**
 * Global setup of the `ui` vitest project: builds the UI when ui/dist is stale, then launches one
 * Chromium (Debian's `chromium`, driven by playwright-core) that every browser suite connects to,
 * so the suites share one browser process. A missing browser fails the run with the command that
 * installs it; it never skips (.ci/run installs it with apt-get).
 */
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { ensureUiBuilt } from '../../ui/build.ts';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the shared Chromium listens (playwright's launchServer). */
    browserWsEndpoint: string;
  }
}

let server: BrowserServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  const executablePath = chromiumPath();
  await ensureUiBuilt();
  server = await chromium.launchServer({ executablePath, headless: true, args: CHROMIUM_ARGS });
  project.provide('browserWsEndpoint', server.wsEndpoint());
}

export async function teardown(): Promise<void> {
  await server?.close();
}
