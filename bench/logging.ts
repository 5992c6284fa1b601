/**
 * Logging and metrics overhead (`npm run bench:logging`): the cost per call of what this service
 * adds on its hot paths, in nanoseconds, each measured over --ops calls (best of --rounds):
 *   - the access line of one request with the logger at warn (off) and at info (a JSON line to a
 *     write that drops it: formatting only, no I/O);
 *   - the events and metrics of one committed decide of a run with 10 tasks (2 ending, 1 created)
 *     with debug and metrics off (what the executor skips: nothing is gathered), debug on, metrics on.
 * Options: --ops=200000 --rounds=5.
 */
import { performance } from 'node:perf_hooks';
import { observeDecide, observing, reportDecide } from '../lib/engine/decide-events.ts';
import { logAccess } from '../lib/http/access-log.ts';
import { createLogger } from '../lib/log/logger.ts';
import { embeddedMetrics, noMetrics } from '../lib/log/metrics.ts';
import type { TaskRecord, WorkflowRecord } from '../lib/model/execution.ts';
import { Args } from './lib/args.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, table } from './lib/stats.ts';

const args = new Args();
const ops = args.int('ops', 200_000, 1);
const rounds = args.int('rounds', 5, 1);

const drop = (_line: string): void => {};
const off = createLogger({ level: 'warn', format: 'json', write: drop });
const info = createLogger({ level: 'info', format: 'json', write: drop });
const debug = createLogger({ level: 'debug', format: 'json', write: drop });

/** Best nanoseconds per call of `fn` over `rounds` rounds of `ops` calls. */
function nsPerCall(fn: (i: number) => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < ops; i++) fn(i);
    best = Math.min(best, ((performance.now() - start) * 1e6) / ops);
  }
  return best;
}

const task = (i: number, status: string, executed: boolean): TaskRecord =>
  ({
    taskId: `task-${i}`,
    taskType: `type_${i % 3}`,
    referenceTaskName: `ref_${i}`,
    status,
    executed,
    retried: false,
    retryCount: 0,
  }) as unknown as TaskRecord;

const before = {
  workflowId: 'wf-1',
  workflowName: 'bench',
  status: 'RUNNING',
  tasks: Array.from({ length: 10 }, (_, i) => task(i, i < 8 ? 'COMPLETED' : 'IN_PROGRESS', i < 8)),
} as unknown as WorkflowRecord;
const created = [task(10, 'SCHEDULED', false)];
const after = {
  ...before,
  tasks: [
    ...before.tasks.map((t, i) => (i < 8 ? t : { ...t, status: 'COMPLETED', executed: true })),
    ...created,
  ],
} as unknown as WorkflowRecord;

const decideWith = (sinks: Parameters<typeof reportDecide>[0]) => () => {
  if (!observing(sinks)) return;
  reportDecide(sinks, observeDecide(before), after, [], created);
};

const rows: string[][] = [
  [
    'access line, logger at warn',
    fmt(
      nsPerCall((i) =>
        logAccess(off, {
          method: 'GET',
          target: `/api/tasks/poll/t?workerid=w${i}`,
          status: 200,
          startedAt: 0,
        }),
      ),
      0,
    ),
  ],
  [
    'access line, logger at info (JSON, no I/O)',
    fmt(
      nsPerCall((i) =>
        logAccess(info, {
          method: 'GET',
          target: `/api/tasks/poll/t?workerid=w${i}`,
          status: 200,
          startedAt: 0,
        }),
      ),
      0,
    ),
  ],
  [
    'access line with a signed query, at info',
    fmt(
      nsPerCall(() =>
        logAccess(info, {
          method: 'GET',
          target: '/api/files/content/f?op=get&exp=1&kid=k&sig=abcdef',
          status: 200,
          startedAt: 0,
        }),
      ),
      0,
    ),
  ],
  [
    'decide events, debug and metrics off',
    fmt(nsPerCall(decideWith({ logger: off, metrics: noMetrics })), 0),
  ],
  [
    'decide events, debug on (JSON, no I/O)',
    fmt(nsPerCall(decideWith({ logger: debug, metrics: noMetrics })), 0),
  ],
  [
    'decide metrics, EMF on (no I/O)',
    fmt(nsPerCall(decideWith({ logger: off, metrics: embeddedMetrics({ write: drop }) })), 0),
  ],
];

console.log(heading(`logging overhead: ${ops} calls, best of ${rounds} rounds (load ${loadAverage()})`));
console.log(table(['what', 'ns per call'], rows));
