/**
 * The README as a newcomer uses it: its "Try it" commands, run as written with bash and curl against
 * a real local server, take a run to COMPLETED; and every repository path it names exists, so it
 * stands alone (no document outside the repository).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { type LocalServer, startLocalServer } from '../../lib/runtime/local.ts';
import { EXIT_CODES } from '../../lib/runtime/start-errors.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The first ```sh block after a line starting with `marker`. */
function blockAfter(marker: string): string {
  const from = README.indexOf(`\n${marker}`);
  const match = /```sh\n([\s\S]*?)```/.exec(README.slice(from));
  if (from < 0 || !match?.[1]) throw new Error(`No sh block after '${marker}'`);
  return match[1];
}

describe('the README', () => {
  let server: LocalServer;

  beforeAll(async () => {
    server = await startLocalServer(configOf({ 'service.store': 'memory', 'service.server.port': 0 }), {
      logger: silentLogger,
    });
  });

  afterAll(async () => {
    await server.close();
  });

  it('"Try it" completes a run as written', async () => {
    const script = blockAfter('Try it');
    expect(script).toContain('http://127.0.0.1:8080/api');
    const { stdout } = await promisify(execFile)(
      'bash',
      ['-e', '-c', script.replaceAll('http://127.0.0.1:8080', server.url)],
      { timeout: 60_000 },
    );
    expect(stdout.trim().endsWith('"status":"COMPLETED"}')).toBe(true);
  });

  it('states the exit codes npm start uses, as docs/operations.md does', () => {
    const prose = README.replace(/\s+/g, ' ');
    expect(prose).toContain(
      `It exits with code ${EXIT_CODES.stopped} after Ctrl-C (a clean shutdown), ${EXIT_CODES.cannotStart} when it cannot start`,
    );
    expect(prose).toContain(
      `and ${EXIT_CODES.configuration} on a configuration error (\`Configuration error: ...\`)`,
    );
    const operations = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8').replace(/\s+/g, ' ');
    expect(operations).toContain(`${EXIT_CODES.stopped} after SIGINT or SIGTERM`);
    expect(operations).toContain(`${EXIT_CODES.configuration} for a configuration error`);
    expect(operations).toContain(`${EXIT_CODES.cannotStart} for a start that cannot work`);
  });

  it('names only paths that exist in the repository, and no document outside it', () => {
    const paths = [...README.matchAll(/`((?:docs|lib|bench|infra|functions|test)\/[\w./-]+)`/g)].map(
      (m) => m[1] as string,
    );
    expect(paths.length).toBeGreaterThan(5);
    for (const path of paths) expect(existsSync(join(ROOT, path.replace(/\/$/, ''))), path).toBe(true);
    expect(README).not.toMatch(/SPEC\.md|ARCHITECTURE\.md|CONVENTIONS\.md|reference\/|shared docs/);
  });
});
