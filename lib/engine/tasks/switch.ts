/**
 * SWITCH and DECISION (docs/conductor-compat.md §5.4, §5.5): sync operators that pick a branch when
 * they are scheduled. The case is evaluated at schedule time and the first task of the chosen
 * branch is scheduled in the same call; the operator's own execute() only marks it COMPLETED.
 * The branch's last task continues after the operator through the definition graph, so an
 * operator that started a branch answers no next task of its own (`inputData.hasChildren`).
 */
import type { WorkflowTask } from '../../model/definitions.ts';
import { errorMessage } from '../../model/errors.ts';
import type { TaskStatus } from '../../model/execution.ts';
import type { TaskTypeSpec } from '../../model/task-types/spec.ts';
import { decisionSpec, switchSpec } from '../../model/task-types/switch.ts';
import type { ScriptEvaluator } from '../script/evaluator.ts';
import type { ScheduleRequest, TaskType } from '../task-type.ts';
import { isScriptEvaluator } from './scripting.ts';

/** What evaluating a case gave: the case string, or why there is none. */
type CaseOutcome = { value: string } | { status: TaskStatus; reason: string };

/** How each operator reads its case, names it in the output, and treats an empty matching branch. */
interface Flavor {
  spec: TaskTypeSpec;
  evaluate(scripts: ScriptEvaluator, wt: WorkflowTask, input: Record<string, unknown>): Promise<CaseOutcome>;
  output(value: string): Record<string, unknown>;
  /** DECISION falls back to the default case when the matching branch is empty; SWITCH runs nothing. */
  emptyFallsBack: boolean;
}

const switchFlavor: Flavor = {
  spec: switchSpec,
  async evaluate(scripts, wt, input) {
    const evaluator = wt.evaluatorType ?? '';
    const expression = wt.expression ?? '';
    if (evaluator === 'value-param') return { value: caseString(input[expression]) };
    if (isScriptEvaluator(evaluator)) return evaluateScript(scripts, expression, input);
    // An evaluator the server does not have terminates the workflow (§5.4 "Errors").
    return {
      status: 'FAILED_WITH_TERMINAL_ERROR',
      reason: `No evaluator registered for type: ${evaluator || '(none)'}`,
    };
  },
  output: (value) => ({ evaluationResult: [value], selectedCase: value }),
  emptyFallsBack: false,
};

const decisionFlavor: Flavor = {
  spec: decisionSpec,
  async evaluate(scripts, wt, input) {
    if (wt.caseValueParam) return { value: caseString(input[wt.caseValueParam]) };
    if (wt.caseExpression) return evaluateScript(scripts, wt.caseExpression, input);
    return {
      status: 'FAILED_WITH_TERMINAL_ERROR',
      reason: 'DECISION needs a caseValueParam or a caseExpression',
    };
  },
  output: (value) => ({ caseOutput: [value] }),
  emptyFallsBack: true,
};

export const switchTask = (scripts: ScriptEvaluator): TaskType => operatorOf(switchFlavor, scripts);
export const decisionTask = (scripts: ScriptEvaluator): TaskType => operatorOf(decisionFlavor, scripts);

function operatorOf(flavor: Flavor, scripts: ScriptEvaluator): TaskType {
  return {
    ...flavor.spec,
    async schedule(ctx, request) {
      const wt = request.workflowTask;
      const task = ctx.createTask(request, {
        taskType: flavor.spec.type,
        status: 'IN_PROGRESS',
        startTime: ctx.now,
      });
      const outcome = await flavor.evaluate(scripts, wt, task.inputData);
      if ('status' in outcome) {
        // An operator is never retried (§4.3), so a failed evaluation fails the run on the next pass.
        task.status = outcome.status;
        task.reasonForIncompletion = outcome.reason;
        task.endTime = ctx.now;
        return [task];
      }
      task.inputData = { ...task.inputData, case: outcome.value };
      task.outputData = flavor.output(outcome.value);
      const first = branchOf(wt, outcome.value, flavor.emptyFallsBack)[0];
      if (first) {
        // Conductor's marker: a string, set only when a branch task was scheduled.
        task.inputData = { ...task.inputData, hasChildren: 'true' };
        await ctx.schedule(branchRequest(first, request));
      }
      return [task];
    },
    execute(ctx, task) {
      ctx.setStatus(task, 'COMPLETED');
      return true;
    },
    next(ctx, task) {
      if (task.inputData.hasChildren === 'true') return [];
      const following = ctx.graph.next(task.referenceTaskName);
      return following ? [following] : [];
    },
  };
}

/** The branch for a case: its own list if the key exists, else the default case. */
function branchOf(wt: WorkflowTask, value: string, emptyFallsBack: boolean): WorkflowTask[] {
  const cases = wt.decisionCases ?? {};
  const matched = Object.hasOwn(cases, value) ? cases[value] : undefined;
  if (matched && (matched.length > 0 || !emptyFallsBack)) return matched;
  return wt.defaultCase ?? [];
}

/** A branch task runs in the operator's loop iteration and under the operator's container. */
function branchRequest(workflowTask: WorkflowTask, request: ScheduleRequest): ScheduleRequest {
  return { workflowTask, iteration: request.iteration, parentTaskId: request.parentTaskId };
}

async function evaluateScript(
  scripts: ScriptEvaluator,
  expression: string,
  input: Record<string, unknown>,
): Promise<CaseOutcome> {
  try {
    return { value: caseString(await scripts.evaluate(expression, input)) };
  } catch (error) {
    // An evaluation error makes the operator FAILED (§5.4); being an operator, it is not retried.
    return { status: 'FAILED', reason: `Error while evaluating script: ${errorMessage(error)}` };
  }
}

/** The case as Conductor compares it: `String(value)`, "null" for a missing value, JSON for structures. */
function caseString(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
