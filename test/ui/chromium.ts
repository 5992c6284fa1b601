/** Where Debian's chromium is, and how the browser tests and the UI bench launch it. */
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
];

/** The chromium executable (CHROMIUM_PATH, else Debian's); throws with the install command when absent. */
export function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH;
  const candidates = configured ? [configured] : CANDIDATES;
  const path = candidates.find((candidate) => existsSync(candidate));
  if (!path) {
    throw new Error(
      `Chromium not found (looked for ${candidates.join(', ')}). The browser tests need Debian's chromium: ` +
        'run `sudo apt-get install -y chromium` (or set CHROMIUM_PATH).',
    );
  }
  return path;
}
