/**
 * `npm run conformance:sdk`: the official JavaScript SDK's own integration suite
 * (@io-orkes/conductor-javascript, conductor-oss/javascript-sdk at SDK_TAG, `src/integration-tests`,
 * jest) against our local server, in two profiles:
 *
 * - `oss`: the SDK's `test:integration:oss` profile (ORKES_BACKEND_VERSION=5,
 *   CONDUCTOR_SERVER_TYPE=oss): its Orkes-only describes are skipped, as against Conductor OSS.
 * - `ungated`: the same with CONDUCTOR_OSS_UNGATE=1, which opens the Orkes-only describes, without
 *   the four files of Orkes cloud features (prompts, integrations, secrets, service registry).
 *
 * Each profile gets a fresh server (memory store, free port, HTTP tasks allowed to reach this
 * machine) and the echo service on 127.0.0.1:8081 that the suite's HTTP tasks call. Failures are
 * compared with known-failures.json (one reason each): a failure not in it exits 1; an entry that
 * now passes is reported so the list can shrink. Options:
 *   --profile=oss|ungated|both (default both)   --test=<jest path pattern> (a subset of files)
 *   --out=<summary JSON> (default test-results/sdk-suite/summary.json)
 *   --cache-dir=<dir> (default $TMPDIR/conductor-sdk-suite-<tag>)
 *   --git-dir=<clone of the SDK> (empty: download)   --tarball-url=<the tag's .tar.gz elsewhere>
 *   --show-logs (the tests' own console output; jest runs --silent otherwise)
 * docs/testing.md describes the run and its current totals.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { startEchoServer } from './echo-server.ts';
import { startLocalServer } from './local-server.ts';
import {
  type Comparison,
  compare,
  type JestReport,
  outcomesOf,
  type TestOutcome,
  type Totals,
  totalsOf,
} from './results.ts';
import { prepareSdkTree, SDK_REPO } from './sdk-tree.ts';

export const SDK_TAG = 'v4.0.0';
/** The tag's commit: a tree from another commit (a moved tag, a wrong mirror) stops the run. */
export const SDK_COMMIT = 'c921079af8a8932dc9c5333b466f7fdc38d1dd11';
const REPO = resolve(import.meta.dirname, '..', '..');
const KNOWN_FAILURES = join(import.meta.dirname, 'known-failures.json');
const ECHO_HOST = '127.0.0.1';
const ECHO_PORT = 8081;

/** Files of Orkes cloud features, left out of the ungated profile (nothing to compare them with). */
const ORKES_CLOUD_ONLY_FILES = [
  'PromptClient.test.ts',
  'IntegrationClient.test.ts',
  'SecretClient.test.ts',
  'ServiceRegistryClient.test.ts',
];

type ProfileName = 'oss' | 'ungated';

interface Profile {
  name: ProfileName;
  env: Record<string, string>;
  ignoreFiles: string[];
}

const PROFILES: Profile[] = [
  { name: 'oss', env: {}, ignoreFiles: [] },
  { name: 'ungated', env: { CONDUCTOR_OSS_UNGATE: '1' }, ignoreFiles: ORKES_CLOUD_ONLY_FILES },
];

/**
 * The server's configuration. Memory store; the HTTP task may call 127.0.0.1 (the echo service);
 * the UI is not served. The scheduler gate is on by default (SchedulerClient, MetadataClient's
 * scheduler tests); nothing in the suite uses files, workflow messages or agents, so those gates keep
 * their defaults.
 */
const SERVER_PROPERTIES = {
  'service.store': 'memory',
  'service.server.port': 0,
  'service.http-task.allow-private-networks': true,
  'service.ui.dir': '',
  'service.instance-id': 'sdk-suite',
  'service.log.level': 'info',
};

function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  const argv = process.argv.slice(2);
  const inline = argv.find((a) => a.startsWith(prefix));
  if (inline !== undefined) return inline.slice(prefix.length);
  const at = argv.indexOf(`--${name}`);
  const next = at >= 0 ? argv[at + 1] : undefined;
  return next ?? fallback;
}

const say = (line = '') => process.stdout.write(`${line}\n`);
/** A path as printed: relative inside the repository, absolute elsewhere. */
const shown = (path: string) => (path.startsWith(`${REPO}/`) ? relative(REPO, path) : path);

interface ProfileRun {
  profile: ProfileName;
  ms: number;
  jestExit: number | null;
  totals: Totals;
  outcomes: TestOutcome[];
  comparison: Comparison;
  jestReport: string;
  serverLog: string;
}

async function runProfile(
  profile: Profile,
  sdkDir: string,
  resultsDir: string,
  known: Record<string, string>,
  testPattern: string | undefined,
  showLogs: boolean,
): Promise<ProfileRun> {
  const serverLog = join(resultsDir, `server-${profile.name}.log`);
  const jestReport = join(resultsDir, `jest-${profile.name}.json`);
  rmSync(jestReport, { force: true });
  const server = await startLocalServer({
    properties: SERVER_PROPERTIES,
    configFile: join(resultsDir, `server-${profile.name}.properties`),
    logFile: serverLog,
  });
  say(`[${profile.name}] server ${server.url} (pid ${server.pid}, log ${shown(serverLog)})`);
  const started = Date.now();
  let jestExit: number | null;
  try {
    jestExit = await runJest(sdkDir, profile, `${server.url}/api`, jestReport, testPattern, showLogs);
  } finally {
    await server.stop();
  }
  const ms = Date.now() - started;
  if (!existsSync(jestReport))
    throw new Error(`[${profile.name}] jest wrote no report (exit ${jestExit}); its output is above`);
  const outcomes = outcomesOf(JSON.parse(readFileSync(jestReport, 'utf8')) as JestReport);
  return {
    profile: profile.name,
    ms,
    jestExit,
    totals: totalsOf(outcomes),
    outcomes,
    comparison: compare(outcomes, known),
    jestReport,
    serverLog,
  };
}

function runJest(
  sdkDir: string,
  profile: Profile,
  serverUrl: string,
  reportFile: string,
  testPattern: string | undefined,
  showLogs: boolean,
): Promise<number | null> {
  // The environment of the SDK's OSS CI job, pointed at our server; nothing inherited may redirect
  // the suite to another server or sign it in (CONDUCTOR_AUTH_*), and the tree has no .env file.
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(CONDUCTOR_|ORKES_|HTTPBIN_)/.test(k)) env[k] = v;
  }
  Object.assign(env, {
    ORKES_BACKEND_VERSION: '5',
    CONDUCTOR_SERVER_TYPE: 'oss',
    CONDUCTOR_SERVER_URL: serverUrl,
    CONDUCTOR_REQUEST_TIMEOUT_MS: '120000',
    HTTPBIN_SERVICE_HOSTNAME: ECHO_HOST,
    ...profile.env,
  });
  const args = [
    join(sdkDir, 'node_modules', 'jest', 'bin', 'jest.js'),
    '--ci',
    '--runInBand',
    '--forceExit',
    '--testTimeout=120000',
    `--cacheDirectory=${join(sdkDir, '.jest-cache')}`,
    '--testMatch=**/src/integration-tests/*.test.[jt]s?(x)',
    '--json',
    `--outputFile=${reportFile}`,
    // The tests' own console output (hundreds of lines) only with --show-logs.
    ...(showLogs ? [] : ['--silent']),
    ...profile.ignoreFiles.map((f) => `--testPathIgnorePatterns=/src/integration-tests/${f}$`),
    ...(testPattern ? [`--testPathPatterns=${testPattern}`] : []),
  ];
  say(`[${profile.name}] jest ${args.slice(1).join(' ')}`);
  const child = spawn(process.execPath, args, { cwd: sdkDir, env, stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

function printProfile(run: ProfileRun): void {
  const { totals, comparison } = run;
  say();
  say(
    `== ${run.profile}: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped ` +
      `(${totals.total} tests) in ${(run.ms / 1000).toFixed(0)} s`,
  );
  const printFailure = (o: TestOutcome) => {
    say(`    FAIL ${o.key}`);
    say(`         ${o.error ?? ''}`);
  };
  if (comparison.regressions.length > 0) {
    say(`  NOT IN THE KNOWN-FAILURE LIST (${comparison.regressions.length}):`);
    comparison.regressions.forEach(printFailure);
  }
  const byReason = new Map<string, TestOutcome[]>();
  for (const k of comparison.known) byReason.set(k.reason, [...(byReason.get(k.reason) ?? []), k]);
  for (const [reason, failures] of byReason) {
    say(`  known (${failures.length}): ${reason}`);
    failures.forEach(printFailure);
  }
  for (const key of comparison.nowPassing) say(`  NOW PASSING (remove from the list): ${key}`);
  if (comparison.notRun.length > 0)
    say(
      `  ${comparison.notRun.length} known-failure entries were not run (skipped, filtered out or renamed)`,
    );
}

async function main(): Promise<void> {
  const profileOption = option('profile', 'both');
  const profiles = PROFILES.filter((p) => profileOption === 'both' || p.name === profileOption);
  if (profiles.length === 0) throw new Error(`--profile is oss, ungated or both, not ${profileOption}`);
  const testPattern = option('test', '') || undefined;
  const showLogs = process.argv.includes('--show-logs');
  const out = resolve(option('out', join(REPO, 'test-results', 'sdk-suite', 'summary.json')));
  const resultsDir = dirname(out);
  mkdirSync(resultsDir, { recursive: true });
  const cacheDir = resolve(option('cache-dir', join(tmpdir(), `conductor-sdk-suite-${SDK_TAG}`)));
  // --git-dir= (empty) looks at no clone, so the tarball is downloaded.
  const gitDir = process.argv.some((a) => a === '--git-dir' || a.startsWith('--git-dir='))
    ? option('git-dir', '')
    : undefined;
  const tarballUrl = option('tarball-url', '') || undefined;
  const knownAll = JSON.parse(readFileSync(KNOWN_FAILURES, 'utf8')) as Record<
    ProfileName,
    Record<string, string>
  >;

  const started = Date.now();
  const tree = prepareSdkTree({
    tag: SDK_TAG,
    cacheDir,
    ...(gitDir !== undefined ? { gitDir } : {}),
    ...(tarballUrl ? { tarballUrl } : {}),
    log: say,
  });
  if (tree.commit && tree.commit !== SDK_COMMIT)
    throw new Error(`${tree.dir} holds commit ${tree.commit}, not ${SDK_TAG}'s ${SDK_COMMIT}: remove it`);
  say(`SDK ${SDK_REPO} ${SDK_TAG} (${tree.commit ?? 'commit unknown'}) in ${tree.dir}`);
  const echo = await startEchoServer(ECHO_HOST, ECHO_PORT);
  say(`Echo service ${echo.url}`);
  const runs: ProfileRun[] = [];
  try {
    for (const profile of profiles)
      runs.push(
        await runProfile(profile, tree.dir, resultsDir, knownAll[profile.name] ?? {}, testPattern, showLogs),
      );
  } finally {
    await echo.close();
  }

  for (const run of runs) printProfile(run);
  const regressions = runs.reduce((n, r) => n + r.comparison.regressions.length, 0);
  const summary = {
    sdk: { repository: SDK_REPO, tag: SDK_TAG, source: tree.source, commit: tree.commit },
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    setupMs: tree.prepared.ms,
    testPattern: testPattern ?? null,
    server: SERVER_PROPERTIES,
    echoHits: Object.fromEntries(echo.hits),
    profiles: Object.fromEntries(
      runs.map((r) => [
        r.profile,
        {
          ms: r.ms,
          jestExit: r.jestExit,
          totals: r.totals,
          failures: r.outcomes
            .filter((o) => o.outcome === 'failed')
            .map((o) => ({
              key: o.key,
              error: o.error,
              known: r.comparison.known.find((k) => k.key === o.key)?.reason ?? null,
            })),
          regressions: r.comparison.regressions.map((o) => o.key),
          nowPassing: r.comparison.nowPassing,
          notRun: r.comparison.notRun,
          jestReport: shown(r.jestReport),
          serverLog: shown(r.serverLog),
          tests: r.outcomes.map((o) => ({ key: o.key, outcome: o.outcome, ms: o.ms })),
        },
      ]),
    ),
    regressions,
  };
  writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
  say();
  say(`Summary: ${shown(out)}; wall time ${(summary.wallMs / 1000).toFixed(0)} s`);
  if (regressions > 0) {
    say(`${regressions} failure(s) not in ${relative(REPO, KNOWN_FAILURES)}: exit 1`);
    process.exitCode = 1;
  }
  // A run that found no test (a --test pattern matching nothing, a moved suite) proves nothing.
  for (const run of runs.filter((r) => r.totals.total === 0)) {
    say(`${run.profile}: no test ran: exit 1`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 2;
});
