/**
 * The SDK-suite runner's reading of jest's JSON report and its comparison with the known-failure
 * list (conformance/sdk-suite; the run itself needs the network and is not part of `npm test`).
 * Also checks the checked-in list: two profiles, every entry keyed by a suite file and given a reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compare,
  firstErrorLine,
  type JestReport,
  outcomesOf,
  SUITE_FAILURE,
  totalsOf,
} from '../../conformance/sdk-suite/results.ts';

const ESC = String.fromCharCode(27);

const report: JestReport = {
  testResults: [
    {
      name: '/cache/src/integration-tests/A.test.ts',
      status: 'failed',
      assertionResults: [
        { ancestorTitles: ['A', 'inner'], title: 'passes', status: 'passed', duration: 5 },
        {
          ancestorTitles: ['A'],
          title: 'fails',
          status: 'failed',
          failureMessages: [
            `${ESC}[2mexpect(${ESC}[22m${ESC}[31mreceived${ESC}[39m).toEqual(expected)\n\nExpected: "x"\nReceived: undefined\n    at Object.<anonymous> (A.test.ts:3:4)`,
          ],
        },
        { ancestorTitles: ['A'], title: 'gated', status: 'pending' },
      ],
    },
    {
      name: '/cache/src/integration-tests/B.test.ts',
      status: 'failed',
      message: '  ● Test suite failed to run\n\n    Cannot find module x\n',
      assertionResults: [],
    },
  ],
};

describe('SDK suite results', () => {
  it('keys each test by file and titles, and counts outcomes', () => {
    const outcomes = outcomesOf(report);
    expect(outcomes.map((o) => [o.key, o.outcome])).toEqual([
      ['A.test.ts > A > inner > passes', 'passed'],
      ['A.test.ts > A > fails', 'failed'],
      ['A.test.ts > A > gated', 'skipped'],
      [`B.test.ts > ${SUITE_FAILURE}`, 'failed'],
    ]);
    expect(outcomes[1]?.error).toBe(
      'expect(received).toEqual(expected) | Expected: "x" | Received: undefined',
    );
    expect(outcomes[3]?.error).toBe('Cannot find module x');
    expect(totalsOf(outcomes)).toEqual({ passed: 1, failed: 2, skipped: 1, total: 4 });
  });

  it('gives the rejection of a promise expected to resolve', () => {
    const message =
      'Error: expect(received).resolves.not.toThrow()\n\nReceived promise rejected instead of resolved\n' +
      'Rejected to value: [[Conductor SDK Error]: Failed: No route for GET /api/x]\n    at expect (x.js:1:1)';
    expect(firstErrorLine(message)).toBe('[Conductor SDK Error]: Failed: No route for GET /api/x');
    expect(firstErrorLine('\n  Error: boom\n    at f (x.js:1:1)')).toBe('Error: boom');
  });

  it('sorts failures into regressions and known ones, and finds entries that now pass', () => {
    const outcomes = outcomesOf(report);
    const result = compare(outcomes, {
      'A.test.ts > A > fails': 'a reason',
      'A.test.ts > A > inner > passes': 'fixed since',
      'A.test.ts > A > gated': 'not run',
      'C.test.ts > gone': 'renamed',
    });
    expect(result.regressions.map((o) => o.key)).toEqual([`B.test.ts > ${SUITE_FAILURE}`]);
    expect(result.known.map((o) => [o.key, o.reason])).toEqual([['A.test.ts > A > fails', 'a reason']]);
    expect(result.nowPassing).toEqual(['A.test.ts > A > inner > passes']);
    expect(result.notRun).toEqual(['A.test.ts > A > gated', 'C.test.ts > gone']);
  });

  it('checked-in known-failure list: both profiles, each entry a suite test with a reason', () => {
    const list = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../conformance/sdk-suite/known-failures.json'), 'utf8'),
    ) as Record<string, Record<string, string>>;
    expect(Object.keys(list).sort()).toEqual(['oss', 'ungated']);
    for (const entries of Object.values(list)) {
      for (const [key, reason] of Object.entries(entries)) {
        expect(key).toMatch(/^[A-Za-z.]+\.test\.ts > .+/);
        expect(reason.trim().length).toBeGreaterThan(20);
      }
    }
  });
});
