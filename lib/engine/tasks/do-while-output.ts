/**
 * The read-side view of a DO_WHILE task's output, as Conductor shows it: `{iteration, "1":
 * {bodyRef: output}, "2": ...}`. The run record keeps only the last iterations (so a long loop
 * stays as cheap per iteration as a short one); every body task row is kept, and readers rebuild
 * the rest from them through the type's `expandOutput` hook. `keepLastN` still limits what is shown.
 */
import { baseRef, graphOf, iterationWithin, loopIterationBase } from '../../model/definition-graph.ts';
import type { WorkflowDef } from '../../model/definitions.ts';
import type { TaskRecord } from '../../model/execution.ts';

/** The loop row `row` with its full output rebuilt from the run's task rows. */
export function expandLoopOutputs(
  row: TaskRecord,
  rows: readonly TaskRecord[],
  def: WorkflowDef,
): TaskRecord {
  const graph = graphOf(def);
  const loopTask = graph.task(row.referenceTaskName) ?? row.workflowTask;
  const body = new Set(graph.descendants(loopTask).map((t) => t.taskReferenceName));
  const byIteration = new Map<number, Map<string, TaskRecord>>();
  const start = loopIterationBase(row.iteration);
  for (const r of rows) {
    const base = baseRef(r.referenceTaskName);
    const n = iterationWithin(r.iteration, start);
    if (n <= 0 || !body.has(base)) continue;
    const refs = byIteration.get(n) ?? new Map<string, TaskRecord>();
    const seen = refs.get(base);
    if (!seen || seen.seq < r.seq) refs.set(base, r);
    byIteration.set(n, refs);
  }
  const count = Number(row.outputData.iteration ?? 0);
  const keep = Math.floor(Number(row.inputData.keepLastN));
  const first = keep > 0 ? Math.max(1, count - keep + 1) : 1;
  const output: Record<string, unknown> = { ...row.outputData };
  // The current iteration's entry is written by the loop itself when it finishes (a running
  // iteration has none, as in Conductor); earlier ones come from the rows.
  for (let n = first; n < count; n++) {
    const refs = byIteration.get(n);
    if (!refs || String(n) in row.outputData) continue;
    output[String(n)] = Object.fromEntries([...refs].map(([ref, t]) => [ref, t.outputData]));
  }
  return { ...row, outputData: output };
}
