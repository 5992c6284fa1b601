/**
 * The decider: a pure function from a run's state (and its definitions) to its next state and the
 * effects to carry out (docs/conductor-compat.md §4.2). It performs no I/O: the executor reads the
 * run, calls decide, and applies the decision through the ports.
 */
import {
  isTerminalTask,
  isTerminalWorkflow,
  type TaskRecord,
  type WorkflowRecord,
} from '../model/execution.ts';
import type { DecideEnv } from './decide-env.ts';
import {
  cancelPending,
  completeRun,
  computeWakeAt,
  endRun,
  processTerminal,
  scheduleRerun,
} from './lifecycle.ts';
import { type DecideResult, isSkippedAhead, RunContext } from './run-context.ts';
import { checkTaskTimeouts, taskWakeAt, workflowTimedOut } from './timeouts.ts';

export type { DecideEnv, DecideResult };

/** How many passes a decide makes while sync tasks keep changing state. */
const MAX_PASSES = 200;

/**
 * Decides a run. The input is not changed unless the caller hands it over with `owned` (the
 * executor does: it read the record for this decide alone), which saves copying it.
 */
/** A task the run is done with: over, and its outcome acted on (or skipped ahead of time). */
const isSettled = (t: TaskRecord): boolean => isTerminalTask(t.status) && (t.executed || isSkippedAhead(t));

export async function decide(
  record: WorkflowRecord,
  env: DecideEnv,
  options: { owned?: boolean } = {},
): Promise<DecideResult> {
  // JSON is the record's own shape, and copying through it is cheaper than structuredClone.
  const working = options.owned ? record : (JSON.parse(JSON.stringify(record)) as WorkflowRecord);
  const run = new RunContext(working, env);
  const wf = run.workflow;

  if (isTerminalWorkflow(wf.status)) {
    // A run ended from outside (terminate): leftover tasks are canceled.
    if (wf.status !== 'COMPLETED') cancelPending(run);
    return run.result();
  }

  if (workflowTimedOut(wf, env.now)) {
    endRun(run, 'TIMED_OUT', `Workflow timed out after ${wf.workflowDefinition.timeoutSeconds} seconds`);
    return run.result();
  }
  if (wf.status === 'PAUSED') {
    computeWakeAt(run);
    return run.result();
  }

  if (wf.rerunFrom) await scheduleRerun(run);
  // A new run: nothing but (maybe) tasks skipped ahead of time (skiptask) in its working set.
  if (wf.tasks.every(isSkippedAhead)) {
    const first = wf.workflowDefinition.tasks[0];
    if (!first) {
      await completeRun(run);
      return run.result();
    }
    await run.schedule({ workflowTask: first, iteration: 0 });
  }

  let changed = false;
  for (let pass = 0; pass < MAX_PASSES && !run.ended; pass++) {
    changed = false;
    for (const task of [...wf.tasks]) {
      if (run.ended) break;
      if (task.executed || task.retried || isSkippedAhead(task)) continue;
      if (!isTerminalTask(task.status)) {
        if (checkTaskTimeouts(run, task)) changed = true;
        const type = env.registry.get(task.workflowTask.type);
        if (!run.ended && !isTerminalTask(task.status) && type.kind !== 'worker' && type.execute) {
          if (await type.execute(run, task)) changed = true;
        }
      }
      if (!run.ended && isTerminalTask(task.status) && !task.executed) {
        await processTerminal(run, task);
        changed = true;
      }
    }
    if (!changed) break;
  }
  // Out of passes with sync tasks still moving (a long loop of INLINE tasks): the executor asks
  // for another decide once this one commits, rather than leaving the run waiting for an event.
  if (changed) run.unfinished = true;

  if (!run.ended && wf.tasks.every(isSettled)) await completeRun(run);
  if (!run.ended) computeWakeAt(run, (task) => taskWakeAt(run, task));
  return run.result();
}
