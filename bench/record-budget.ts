/**
 * The payload budget of a run record (`npm run bench:budget`, bench/README.md): the CPU a commit
 * of a big fork's record spends in the externalizing store (lib/payloads/externalizing-store.ts)
 * deciding which payloads stay inline, for branch outputs of several sizes. The store below it
 * takes the record and does nothing, so the figure is the budget's own work: the bound walk, an
 * exact measure when the bounds exceed the budget, and any payload moved out.
 *   --branches=1000  --output-bytes=100,1000  --commits=300
 */
import { configOf } from '../lib/config/load.ts';
import type { TaskRecord, WorkflowRecord } from '../lib/model/execution.ts';
import { externalizingExecutions } from '../lib/payloads/externalizing-store.ts';
import { MemoryPayloadStore } from '../lib/payloads/memory.ts';
import type { ExecutionStore } from '../lib/store/ports.ts';
import { Args } from './lib/args.ts';
import { payloadOf } from './lib/payload.ts';
import { fmt, heading, table } from './lib/stats.ts';

const args = new Args();
const branches = args.int('branches', 1000, 1);
const sizes = args.intList('output-bytes', '100,1000');
const commits = args.int('commits', 300, 1);
const config = configOf();
const thresholdBytes = config.number('service.external-payload.threshold-bytes');
const recordBudgetBytes = config.number('service.external-payload.record-budget-bytes');

/** A run record of `branches` open worker tasks, each with an order-like output of about `bytes`. */
function forkRecord(bytes: number): WorkflowRecord {
  const tasks = Array.from(
    { length: branches },
    (_, i) =>
      ({
        taskId: `task-${i}`,
        referenceTaskName: `branch_${i}`,
        inputData: { item: i },
        outputData: payloadOf(bytes, i),
      }) as unknown as TaskRecord,
  );
  return { workflowId: 'bench-budget', input: {}, output: {}, tasks } as unknown as WorkflowRecord;
}

async function cpuPerCommit(bytes: number): Promise<{ ms: number; external: number }> {
  let external = 0;
  const sink = {
    commitWorkflow: async (record: WorkflowRecord) => {
      external = record.tasks.filter((t) => t.externalOutputPayloadStoragePath).length;
    },
  } as unknown as ExecutionStore;
  const store = externalizingExecutions(sink, new MemoryPayloadStore(), {
    thresholdBytes,
    recordBudgetBytes,
  });
  const record = forkRecord(bytes);
  for (let i = 0; i < Math.min(50, commits); i++) await store.commitWorkflow(record, 0);
  const start = process.cpuUsage();
  for (let i = 0; i < commits; i++) await store.commitWorkflow(record, 0);
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000 / commits, external };
}

console.log(heading(`Run record payload budget: one commit of a ${fmt(branches, 0)}-branch fork's record`));
console.log(
  `threshold ${fmt(thresholdBytes, 0)} B a payload, record budget ${fmt(recordBudgetBytes, 0)} B; ` +
    `CPU per commit, the mean of ${commits} commits after warm-up (the store below does nothing)`,
);
const rows: string[][] = [];
for (const bytes of sizes) {
  const record = forkRecord(bytes);
  const inline = record.tasks.reduce((sum, t) => sum + Buffer.byteLength(JSON.stringify(t.outputData)), 0);
  const { ms, external } = await cpuPerCommit(bytes);
  rows.push([fmt(bytes, 0), fmt(inline / 1024, 0), fmt(ms, 3), fmt(external, 0)]);
}
console.log(table(['output bytes/branch', 'outputs KB', 'CPU ms/commit', 'outputs moved out'], rows));
