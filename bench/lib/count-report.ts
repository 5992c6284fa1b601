/**
 * The store-operation report of the throughput benchmark: reads, writes, modelled index writes,
 * request units and queue messages per SIMPLE task and per state transition, by phase, by
 * operation and by hot partition (bench/README.md defines each figure).
 */

import { DAY_SHARDS, TYPE_SHARDS, WAKE_SHARDS } from '../../lib/store/dynamodb/execution-items.ts';
import { QUEUE_SHARDS } from '../../lib/store/dynamodb/queue.ts';
import { fmt, heading, table } from './stats.ts';
import { byOperation, INDEXES, type MeterSnapshot, PHASES, type Tally, totalOf } from './tally.ts';

/** A SIMPLE task moves ->SCHEDULED, ->IN_PROGRESS, ->COMPLETED. */
const TRANSITIONS_PER_TASK = 3;

export interface CountSetup {
  /** SIMPLE tasks completed in the metered load. */
  tasks: number;
  tasksPerWorkflow: number;
  /** Distinct task types (worker queues) the load used. */
  taskTypes: number;
  workflowName: string;
  aims: { tasksPerSecond: number; readsPerTransition: number; writesPerTransition: number };
}

export function printCounts(snapshot: MeterSnapshot, setup: CountSetup): void {
  const { tasks, aims } = setup;
  const perTask = (n: number) => fmt(n / tasks, 2);
  const perTransition = (n: number) => fmt(n / tasks / TRANSITIONS_PER_TASK, 2);
  const total = totalOf(snapshot);
  const workflows = tasks / setup.tasksPerWorkflow;

  console.log(
    heading(`Store operations (metered in-process pass: ${workflows} workflows, ${tasks} SIMPLE tasks)`),
  );
  console.log(
    [
      'One SIMPLE task = the decide that schedules it (creates its row and queue entry), the poll that',
      'claims it, the update that completes it; the run start (with its first decide) and the final',
      `decide that completes the run are shared over the run's ${setup.tasksPerWorkflow} tasks. A task makes 3`,
      'state transitions (->SCHEDULED, ->IN_PROGRESS, ->COMPLETED), so per transition = per task / 3.',
      'read = item read by key or one Query; write = item put/deleted (failed conditional writes',
      'included); index writes and request units are MODELLED from lib/store/dynamodb/tables.ts.',
    ].join('\n'),
  );
  const row = (label: string, t: Tally) => [
    label,
    perTask(t.reads),
    perTask(t.writes),
    perTask(t.indexWrites),
    perTask(t.reads + t.writes + t.indexWrites),
    perTask(t.readUnits),
    perTask(t.writeUnits),
  ];
  console.log('\nPer SIMPLE task, by phase:');
  console.log(
    table(
      ['phase', 'reads', 'writes', 'index writes', 'all', 'RCU (model)', 'WCU (model)'],
      [
        ...PHASES.map((phase) => row(phase, totalOf(snapshot, phase))).filter((r) =>
          r.slice(1).some((c) => c !== '0.00'),
        ),
        row('total per task', total),
      ],
    ),
  );
  const reads = total.reads / tasks / TRANSITIONS_PER_TASK;
  const writes = total.writes / tasks / TRANSITIONS_PER_TASK;
  console.log('\nPer state transition:');
  console.log(
    table(
      ['figure', 'value', 'aim'],
      [
        [
          'store reads',
          perTransition(total.reads),
          `<= ${aims.readsPerTransition} ${reads <= aims.readsPerTransition ? 'met' : 'NOT met'}`,
        ],
        [
          'store writes',
          perTransition(total.writes),
          `<= ${aims.writesPerTransition} ${writes <= aims.writesPerTransition ? 'met' : 'NOT met'}`,
        ],
        ['index writes (modelled)', perTransition(total.indexWrites), ''],
        ['store writes + index writes', perTransition(total.writes + total.indexWrites), ''],
        [
          'read units / write units (modelled)',
          `${perTransition(total.readUnits)} / ${perTransition(total.writeUnits)}`,
          '',
        ],
        ['bytes written to the base tables', perTransition(total.bytesWritten), ''],
        ['conditional writes that failed', perTransition(total.conflicts), ''],
        [
          'queue messages (decision requests + timer msgs + task-queue pushes)',
          perTransition(
            snapshot.messages.decisionRequests +
              snapshot.messages.timerMessages +
              snapshot.messages.taskQueuePushes,
          ),
          '',
        ],
      ],
    ),
  );
  console.log("\nPer SIMPLE task, by index (modelled from every index of the tables' specs):");
  console.log(
    table(
      ['index', 'writes per task', 'WCU per task'],
      INDEXES.map((i) => [i, perTask(total.byIndex[i] ?? 0), perTask(total.byIndexUnits[i] ?? 0)]),
    ),
  );
  const m = snapshot.messages;
  console.log('\nQueue messages per SIMPLE task:');
  console.log(
    table(
      ['message', 'per task'],
      [
        ['decision-queue requests (one SQS FIFO message each on AWS)', perTask(m.decisionRequests)],
        ['timer-queue messages (wake-ups within 15 min, SQS delay)', perTask(m.timerMessages)],
        ['task-queue pushes (queue entries written)', perTask(m.taskQueuePushes)],
        ['decides run (the local queue coalesces requests of one run)', perTask(m.decides)],
      ],
    ),
  );
  printHotPartitions(snapshot, setup);
  console.log('\nPer SIMPLE task, by store operation (all phases):');
  console.log(
    table(
      [
        'operation',
        'calls',
        'reads',
        'writes',
        'index writes',
        'failed cond.',
        'RCU',
        'WCU',
        'B/item written',
      ],
      [...byOperation(snapshot).entries()].map(([op, t]) => [
        op,
        perTask(t.calls),
        perTask(t.reads),
        perTask(t.writes),
        perTask(t.indexWrites),
        perTask(t.conflicts),
        perTask(t.readUnits),
        perTask(t.writeUnits),
        t.bytesWritten > 0 ? fmt(t.bytesWritten / t.writes, 0) : '',
      ]),
    ),
  );
  const phaseOps = [...snapshot.ops.entries()]
    .map(([key, t]) => [
      key.replace('\u0000', '  '),
      perTask(t.calls),
      perTask(t.reads),
      perTask(t.writes),
      perTask(t.indexWrites),
    ])
    .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
  console.log('\nPer SIMPLE task, by phase and operation:');
  console.log(table(['phase  operation', 'calls', 'reads', 'writes', 'index writes'], phaseOps));
}

/**
 * Writes that land on one partition key whatever the number of runs: one of a worker queue's shard
 * keys (pk "Q#<shard>#<type>"), one of the sparse `wakeups` GSI's shard keys, the byName GSI (one
 * key per workflow name), one day's byStartDay shard, one of a task type's byTaskType shard keys,
 * poll data (pk "P#<type>"). DynamoDB serves about 1,000 write units per second per partition, so
 * at the aimed rate these are the first limits a deployment meets.
 */
function printHotPartitions(snapshot: MeterSnapshot, setup: CountSetup): void {
  const { tasks, aims } = setup;
  const ops = byOperation(snapshot);
  const total = totalOf(snapshot);
  const writes = (op: string) => ops.get(op)?.writeUnits ?? 0;
  const types = setup.taskTypes;
  const queueUnits = writes('queue.push') + writes('queue.remove');
  const rows: [string, number][] = [
    [
      `one of a worker queue's ${QUEUE_SHARDS} shard keys, pk Q#<shard>#<type> (${types} types share the load)`,
      queueUnits / types / QUEUE_SHARDS,
    ],
    [
      `wakeups GSI, one of its ${WAKE_SHARDS} shard keys "Wn"`,
      (total.byIndexUnits['executions.wakeups'] ?? 0) / WAKE_SHARDS,
    ],
    [`byName GSI, partition key "${setup.workflowName}"`, total.byIndexUnits['executions.byName'] ?? 0],
    [
      `byStartDay GSI, one of today's ${DAY_SHARDS} shard keys`,
      (total.byIndexUnits['executions.byStartDay'] ?? 0) / DAY_SHARDS,
    ],
    [
      `byTaskType GSI, one of a type's ${TYPE_SHARDS} shard keys <type>#<shard> (${types} types)`,
      (total.byIndexUnits['executions.byTaskType'] ?? 0) / types / TYPE_SHARDS,
    ],
    [`poll data, pk P#<type> (${types} types)`, writes('pollData.record') / types],
  ];
  console.log(
    `\nHot partitions at the aimed ${aims.tasksPerSecond} task executions/s (modelled; ~1,000 WCU/s per partition):`,
  );
  console.log(
    table(
      ['partition', 'WCU per task', `WCU/s at ${aims.tasksPerSecond}/s`],
      rows.map(([label, units]) => [
        label,
        fmt(units / tasks, 2),
        fmt((units / tasks) * aims.tasksPerSecond, 0),
      ]),
    ),
  );
}
