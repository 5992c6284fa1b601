/**
 * Browser test harness: the real local server (memory store, the built UI at `/`) over loopback,
 * and a page in the shared Chromium (test/ui/global-setup.ts). `shot(name)` saves the page's
 * current state to test-results/<name>.png; every browser test ends with one.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { DIST_DIR } from '../../ui/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

export const RESULTS_DIR = join(process.cwd(), 'test-results');

export interface BrowserHarness {
  /** The page of the current test (a fresh browser context per test). */
  readonly page: Page;
  /** The local server, for setting up data through the API. */
  readonly server: TestServer;
  /** The server's base URL, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** Saves a screenshot of the page to test-results/<name>.png. */
  shot(name: string): Promise<void>;
  /** Calls the API directly (setup and checks), answering the parsed JSON body or text. */
  api(method: string, path: string, body?: unknown): Promise<unknown>;
}

export function useBrowser(overrides: Record<string, string | number | boolean> = {}): BrowserHarness {
  let browser: Browser | undefined;
  let server: TestServer | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    server = await startTestServer({ 'service.ui.dir': DIST_DIR, ...overrides }, { transport: 'node' });
    browser = await chromium.connect(inject('browserWsEndpoint'));
    mkdirSync(RESULTS_DIR, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    if (!browser) throw new Error('The browser connects in beforeAll');
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  });
  afterEach(async () => {
    await context?.close();
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is ready inside tests only`);
    return value;
  };
  return {
    get page() {
      return need(page, 'The page');
    },
    get server() {
      return need(server, 'The server');
    },
    get url() {
      return need(server, 'The server').url;
    },
    shot: async (name) => {
      await need(page, 'The page').screenshot({ path: join(RESULTS_DIR, `${name}.png`), fullPage: true });
    },
    api: async (method, path, body) => {
      const response = await fetch(`${need(server, 'The server').url}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
      if (text === '') return undefined;
      return response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    },
  };
}
