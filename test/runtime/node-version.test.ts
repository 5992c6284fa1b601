/**
 * The Node.js the service runs on: Lambda runs every function on Node.js 22, and the project brings
 * Node.js 22 itself (the `node` package, first on the PATH of every npm script), so the tests and
 * the local server run what Lambda runs. The local server refuses an older Node
 * (lib/runtime/start-errors.ts; as a process: start-failures.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE_MAJOR, nodeTooOld, StartError } from '../../lib/runtime/start-errors.ts';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

const major = (version: string) => Number.parseInt(version.replace(/^v/, ''), 10);

describe('the Node.js version', () => {
  it("keeps the start-up check, package.json engines and the project's own Node in step", () => {
    expect(MINIMUM_NODE_MAJOR).toBe(22);
    expect(packageJson.engines.node).toBe(`>=${MINIMUM_NODE_MAJOR}`);
    expect(major(packageJson.devDependencies.node ?? '')).toBe(MINIMUM_NODE_MAJOR);
  });

  it('runs these tests on that Node', () => {
    expect(major(process.version)).toBeGreaterThanOrEqual(MINIMUM_NODE_MAJOR);
  });

  it('refuses Node 20 and 21 with a sentence that says what to do', () => {
    for (const version of ['v20.20.2', 'v21.7.3']) {
      const error = nodeTooOld(version);
      expect(error).toBeInstanceOf(StartError);
      expect(error?.message).toBe(
        `Node.js ${version} is too old: the service needs Node.js 22 or newer. Run npm ci, which installs the project's own Node.js 22 for npm's scripts, then npm start; or install Node.js 22 or newer.`,
      );
    }
  });

  it('accepts Node 22 and newer', () => {
    for (const version of ['v22.0.0', 'v22.23.3', 'v24.1.0', 'v100.0.0'])
      expect(nodeTooOld(version)).toBeUndefined();
  });
});
