/**
 * Reading jest's JSON report (`--json --outputFile`) into per-test results, and comparing the
 * failures with the checked-in list of known failures. Pure functions: test/conformance covers them.
 */
import { basename } from 'node:path';

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface TestOutcome {
  /** `<file> > <describe> > ... > <test>`: the key of the known-failure list. */
  key: string;
  file: string;
  outcome: Outcome;
  ms?: number;
  /** First line of the first failure message (with Expected/Received for an expect failure). */
  error?: string;
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

/** The part of jest's `--json` report read here. */
export interface JestReport {
  testResults: {
    name: string;
    status?: string;
    message?: string;
    assertionResults: {
      ancestorTitles: string[];
      title: string;
      status: string;
      duration?: number | null;
      failureMessages?: string[];
    }[];
  }[];
}

/** A file that failed before any of its tests ran (does not compile, a hook outside tests threw). */
export const SUITE_FAILURE = '(test file failed to run)';

export function outcomesOf(report: JestReport): TestOutcome[] {
  const outcomes: TestOutcome[] = [];
  for (const file of report.testResults) {
    const name = basename(file.name);
    for (const test of file.assertionResults) {
      const outcome: Outcome =
        test.status === 'passed' ? 'passed' : test.status === 'failed' ? 'failed' : 'skipped';
      const error = outcome === 'failed' ? firstErrorLine(test.failureMessages?.join('\n') ?? '') : undefined;
      outcomes.push({
        key: [name, ...test.ancestorTitles, test.title].join(' > '),
        file: name,
        outcome,
        ...(typeof test.duration === 'number' ? { ms: test.duration } : {}),
        ...(error !== undefined ? { error } : {}),
      });
    }
    if (file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed')) {
      outcomes.push({
        key: `${name} > ${SUITE_FAILURE}`,
        file: name,
        outcome: 'failed',
        error: firstErrorLine(file.message ?? ''),
      });
    }
  }
  return outcomes;
}

export function totalsOf(outcomes: readonly TestOutcome[]): Totals {
  const totals = { passed: 0, failed: 0, skipped: 0, total: outcomes.length };
  for (const o of outcomes) totals[o.outcome]++;
  return totals;
}

// ESC [ ... m: jest colours its messages even in a JSON report.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * The first meaningful line of a failure message. An `expect(...)` failure's first line only names
 * the matcher, so its Expected/Received lines follow it; a promise expected to resolve that
 * rejected gives its rejection instead.
 */
export function firstErrorLine(message: string): string {
  const lines = message
    .replace(ANSI, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('at ') && !l.startsWith('●'));
  const first = lines[0] ?? '(no message)';
  if (!/^(Error: )?expect\(/.test(first)) return first;
  // A rejected `.resolves` says why on its "Rejected to value" line: that line alone is the error.
  const rejected = lines.find((l) => l.startsWith('Rejected to value: '));
  if (rejected) return rejected.slice('Rejected to value: '.length).replace(/^\[(.*)\]$/, '$1');
  const detail = lines.filter((l) => /^(Expected|Received)\b/.test(l)).slice(0, 2);
  return [first, ...detail].join(' | ');
}

export interface Comparison {
  /** Failing and not in the list: the runner exits non-zero. */
  regressions: TestOutcome[];
  /** Failing and in the list, with the list's reason. */
  known: (TestOutcome & { reason: string })[];
  /** In the list and passed this run: the entry can go. */
  nowPassing: string[];
  /** In the list but skipped or absent this run (another --test filter, a renamed test). */
  notRun: string[];
}

export function compare(outcomes: readonly TestOutcome[], known: Record<string, string>): Comparison {
  const byKey = new Map(outcomes.map((o) => [o.key, o]));
  const regressions: TestOutcome[] = [];
  const knownFailures: (TestOutcome & { reason: string })[] = [];
  for (const o of outcomes) {
    if (o.outcome !== 'failed') continue;
    const reason = known[o.key];
    if (reason === undefined) regressions.push(o);
    else knownFailures.push({ ...o, reason });
  }
  const nowPassing: string[] = [];
  const notRun: string[] = [];
  for (const key of Object.keys(known)) {
    const o = byKey.get(key);
    if (o?.outcome === 'passed') nowPassing.push(key);
    else if (o?.outcome !== 'failed') notRun.push(key);
  }
  return { regressions, known: knownFailures, nowPassing, notRun };
}
