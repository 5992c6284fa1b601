/**
 * UI benchmark (`npm run bench:ui`), issue 15: the main bundle's gzipped size (budget 400 KB), and
 * how long a page takes to show its data with --definitions workflow and task definitions
 * (default 1,000 each) on the local server (memory store) in Debian's chromium:
 *   cold      a fresh page load of the list (HTML, scripts, the API call, the first page of 100
 *             rows drawn with the pager counting all 1,000)
 *   in app    after the UI has loaded: a click in the navigation until that page is drawn (the
 *             issue's "a page that has loaded shows its data within 300 ms")
 * Medians and p90 over --iterations (default 7).
 */
import { performance } from 'node:perf_hooks';
import { chromium, type Page } from 'playwright-core';
import { configOf } from '../lib/config/load.ts';
import { silentLogger } from '../lib/log/logger.ts';
import { startLocalServer } from '../lib/runtime/local.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../test/ui/chromium.ts';
import { DIST_DIR, ensureUiBuilt, MAIN_BUNDLE_BUDGET_BYTES, mainBundleBytes } from '../ui/build.ts';
import { Args } from './lib/args.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, percentile, table } from './lib/stats.ts';

const args = new Args();
const count = args.int('definitions', 1000, 1);
const iterations = args.int('iterations', 7, 1);
const say = (line: string) => process.stdout.write(`${line}\n`);

await ensureUiBuilt();
const bundle = mainBundleBytes();
say(heading('Main bundle'));
say(
  `${fmt(bundle.gzipBytes / 1024, 1)} KB gzipped (${fmt(bundle.rawBytes / 1024, 1)} KB raw; budget ${MAIN_BUNDLE_BUDGET_BYTES / 1024} KB): ${bundle.files.join(', ')}`,
);

const server = await startLocalServer(
  configOf({ 'service.store': 'memory', 'service.server.port': 0, 'service.ui.dir': DIST_DIR }),
  { logger: silentLogger },
);
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  headless: true,
  args: CHROMIUM_ARGS,
});
try {
  const send = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  };
  const names = Array.from({ length: count }, (_, i) => `bench_${String(i).padStart(5, '0')}`);
  for (let i = 0; i < names.length; i += 500) {
    const slice = names.slice(i, i + 500);
    await send(
      'POST',
      '/api/metadata/taskdefs',
      slice.map((name) => ({ name, retryCount: 1 })),
    );
    await send(
      'PUT',
      '/api/metadata/workflow',
      slice.map((name) => ({
        name,
        version: 1,
        description: `Benchmark workflow ${name}`,
        tasks: [{ name, taskReferenceName: 'only', type: 'SIMPLE' }],
      })),
    );
  }

  const page = await browser.newPage();
  const rowsShown = (label: string) =>
    page.waitForFunction(
      ([table, n]) => {
        // The lists page at 100 rows: the first page drawn, and the pager counting all of them.
        const rows = document.querySelectorAll(`table[aria-label="${table}"] tbody tr`).length;
        const pager = document.querySelector(`nav[aria-label="${table} pages"]`)?.textContent ?? '';
        return rows === Math.min(n, 100) && (n <= 100 || pager.includes(`of ${n}`));
      },
      [label, count] as const,
      { polling: 'raf', timeout: 30_000 },
    );
  const cold: number[] = [];
  const warmWorkflows: number[] = [];
  const warmTasks: number[] = [];
  const timed = async (act: () => Promise<unknown>, shown: () => Promise<unknown>) => {
    const start = performance.now();
    await act();
    await shown();
    return performance.now() - start;
  };
  const click = (p: Page, name: string) =>
    p.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  for (let i = 0; i < iterations; i++) {
    cold.push(
      await timed(
        () => page.goto(`${server.url}/definitions/workflows`, { waitUntil: 'commit' }),
        () => rowsShown('Workflow definitions'),
      ),
    );
    warmTasks.push(
      await timed(
        () => click(page, 'Tasks'),
        () => rowsShown('Task definitions'),
      ),
    );
    warmWorkflows.push(
      await timed(
        () => click(page, 'Workflows'),
        () => rowsShown('Workflow definitions'),
      ),
    );
  }
  const row = (what: string, values: number[]) => [
    what,
    fmt(percentile(values, 50), 0),
    fmt(percentile(values, 90), 0),
  ];
  say(
    heading(
      `Time until ${count} definitions are shown (ms), ${iterations} iterations; load ${loadAverage()}`,
    ),
  );
  say(
    table(
      ['page', 'p50', 'p90'],
      [
        row('workflow definitions, cold page load', cold),
        row('workflow definitions, in app (nav click)', warmWorkflows),
        row('task definitions, in app (nav click)', warmTasks),
      ],
    ),
  );
} finally {
  await browser.close();
  await server.close();
}
