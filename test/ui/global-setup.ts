/**
 * Global setup of the `ui` vitest project: builds the UI when ui/dist is stale, then launches one
 * Chromium (Debian's `chromium`, driven by playwright-core) that every browser suite connects to,
 * so the suites share one browser process. A missing browser fails the run with the command that
 * installs it; it never skips (.ci/run installs it with apt-get).
 */
import { existsSync } from 'node:fs';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { ensureUiBuilt } from '../../ui/build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the shared Chromium listens (playwright's launchServer). */
    browserWsEndpoint: string;
  }
}

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

export function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH;
  const found = configured ? [configured] : CANDIDATES;
  const path = found.find((candidate) => existsSync(candidate));
  if (!path) {
    throw new Error(
      `Chromium not found (looked for ${found.join(', ')}). The browser tests need Debian's chromium: ` +
        'run `sudo apt-get install -y chromium` (or set CHROMIUM_PATH).',
    );
  }
  return path;
}

let server: BrowserServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  const executablePath = chromiumPath();
  await ensureUiBuilt();
  server = await chromium.launchServer({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  project.provide('browserWsEndpoint', server.wsEndpoint());
}

export async function teardown(): Promise<void> {
  await server?.close();
}
