/**
 * Idempotent start (StartWorkflowRequest.idempotencyKey, docs/conductor-compat.md §2.16; Conductor
 * OSS accepts the key and ignores it, here it works). A key, scoped to the workflow name, points at
 * one run through the store's conditional claim, so of any number of concurrent starts with one key
 * exactly one creates a run. The strategy says what the others get:
 *   FAIL            409 naming the run the key points at;
 *   RETURN_EXISTING that run's id;
 *   FAIL_ON_RUNNING 409 while that run is not over; once it is, the key moves to a new run.
 * A run whose retention expired (service.workflow.retention) is gone: the key moves to a new run
 * whatever the strategy, after its stored record is held from DynamoDB's TTL for HOLD_MS, so a
 * start that read the key before it moved cannot create the expired run's id again and make a
 * second run. Once the TTL has deleted an expired record nobody moved the key off, the key's run id
 * is free and a run is created under it again; its task ids differ from the expired run's
 * (model/ids.ts).
 *
 * The id of the run a key points at is derived from the name and the key (and, for a successor, the
 * run it replaces), so a start that died between its claim and its run's creation leaves nothing
 * dangling: the next start with that key creates that very run, and two that race converge on it
 * (the run's creation is conditional on its id too).
 */
import { ConflictError } from '../model/errors.ts';
import { isTerminalWorkflow } from '../model/execution.ts';
import { derivedId } from '../model/ids.ts';
import type { IdempotencyClaims, RunStore } from '../store/ports.ts';

export const IDEMPOTENCY_STRATEGIES = ['FAIL', 'RETURN_EXISTING', 'FAIL_ON_RUNNING'] as const;
export type IdempotencyStrategy = (typeof IDEMPOTENCY_STRATEGIES)[number];

export interface IdempotentStart {
  workflowName: string;
  key: string;
  strategy: IdempotencyStrategy;
}

export interface StartOutcome {
  workflowId: string;
  /** This call created the run (and so must get its first decide going). */
  created: boolean;
}

/** Successors and concurrent takeovers are bounded: each round means someone else made progress. */
const MAX_ROUNDS = 10;

/** How long an expired run's record is kept once a key moves off it: longer than any start runs. */
export const HOLD_MS = 24 * 3_600_000;

/**
 * Starts the run a key points at, or answers the existing one as the strategy says. `create`
 * stores a new run under the given id, false when a run with that id already exists.
 */
export async function startOnce(
  executions: RunStore & IdempotencyClaims,
  start: IdempotentStart,
  create: (workflowId: string) => Promise<boolean>,
  now: number,
): Promise<StartOutcome> {
  const { workflowName, key, strategy } = start;
  let candidate = derivedId('idempotency', workflowName, key);
  let replaces: string | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const held = await executions.claimIdempotencyKey({ workflowName, key, workflowId: candidate, replaces });
    const target = held ?? candidate;
    // The key is ours, or points at a run its starter has not stored (yet, or ever): create it.
    if (held === undefined && (await create(target))) return { workflowId: target, created: true };
    let run = await executions.getWorkflow(target);
    if (!run) {
      if (await create(target)) return { workflowId: target, created: true };
      run = await executions.getWorkflow(target);
      if (!run) {
        // Stored, yet reads do not show it: its retention expired. It is gone for every strategy,
        // so the key moves on to a successor, as from an ended run, once the record is held (a
        // record deleted meanwhile frees the id: the next round creates the run under it).
        if (await executions.holdRun(target, now + HOLD_MS)) {
          replaces = target;
          candidate = derivedId('idempotency', workflowName, key, target);
        }
        continue;
      }
    }
    if (strategy === 'RETURN_EXISTING') return { workflowId: target, created: false };
    if (strategy === 'FAIL') {
      throw new ConflictError(
        `Workflow with idempotencyKey '${key}' already exists: ${target} (idempotencyStrategy FAIL)`,
      );
    }
    if (!isTerminalWorkflow(run.status)) {
      throw new ConflictError(
        `Workflow ${target} with idempotencyKey '${key}' is still ${run.status} (idempotencyStrategy FAIL_ON_RUNNING)`,
      );
    }
    // Over: the key moves on to a successor, if no concurrent start moved it first.
    replaces = target;
    candidate = derivedId('idempotency', workflowName, key, target);
  }
  throw new ConflictError(`Idempotency key '${key}' kept changing while a workflow was started with it`);
}
