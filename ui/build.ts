/**
 * Builds the UI into ui/dist with Vite, printing each file's size and the main bundle's gzipped
 * size (the budget is 400 KB). `--if-stale` builds only when ui/dist is missing or older than a
 * source file: `npm start`, the browser tests and the CDK stack call it that way, so a fresh clone
 * serves the UI without a separate build step.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const UI_DIR = fileURLToPath(new URL('.', import.meta.url));
export const DIST_DIR = join(UI_DIR, 'dist');
/** The gzipped size the entry chunk and its static imports may reach (issue 15). */
export const MAIN_BUNDLE_BUDGET_BYTES = 400 * 1024;

const SOURCES = ['src', 'index.html', 'vite.config.ts', 'tsconfig.json', '../package-lock.json'];

function newestMtime(path: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** Whether ui/dist is missing or older than any UI source. */
export function isStale(): boolean {
  const built = newestMtime(join(DIST_DIR, 'index.html'));
  if (built === 0) return true;
  return SOURCES.some((source) => newestMtime(join(UI_DIR, source)) > built);
}

export async function buildUi(logLevel: 'info' | 'warn' = 'warn'): Promise<void> {
  const { build } = await import('vite');
  // Vite takes React's build flavour from NODE_ENV when it is set: under vitest (NODE_ENV=test)
  // that would ship React's development build. The UI is always built for production.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(UI_DIR, 'vite.config.ts'), logLevel, mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

export async function ensureUiBuilt(): Promise<boolean> {
  if (!isStale()) return false;
  await buildUi();
  return true;
}

/** The main bundle: index.html's entry script and the chunks it preloads, gzipped. */
export function mainBundleBytes(): { files: string[]; gzipBytes: number; rawBytes: number } {
  const html = readFileSync(join(DIST_DIR, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1] as string,
  );
  let gzipBytes = 0;
  let rawBytes = 0;
  for (const file of files) {
    const bytes = readFileSync(join(DIST_DIR, file));
    rawBytes += bytes.length;
    gzipBytes += gzipSync(bytes, { level: 9 }).length;
  }
  return { files, gzipBytes, rawBytes };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const ifStale = process.argv.includes('--if-stale');
  const say = (line: string) => process.stdout.write(`${line}\n`);
  if (ifStale && isStale()) say('Building the UI (ui/dist is missing or older than its sources)…');
  let built = true;
  if (ifStale) built = await ensureUiBuilt();
  else await buildUi('info');
  if (built) {
    const main = mainBundleBytes();
    say(
      `UI built into ${DIST_DIR}: main bundle ${(main.gzipBytes / 1024).toFixed(1)} KB gzipped ` +
        `(${(main.rawBytes / 1024).toFixed(1)} KB raw, budget ${MAIN_BUNDLE_BUDGET_BYTES / 1024} KB) in ${main.files.join(', ')}`,
    );
  }
}
