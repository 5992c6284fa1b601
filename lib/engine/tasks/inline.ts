/**
 * INLINE (docs/conductor-compat.md §5.16): a sync system task that evaluates `inputData.expression`
 * with the whole resolved input bound as `$` and completes with `{result}`. The script runs in the
 * QuickJS sandbox the registry is built with, whose time and memory limits stand in for Conductor's 4 s.
 */
import { errorMessage } from '../../model/errors.ts';
import { inlineSpec } from '../../model/task-types/inline.ts';
import type { ScriptEvaluator } from '../script/evaluator.ts';
import type { TaskType } from '../task-type.ts';
import { isScriptEvaluator } from './scripting.ts';

export const inlineTask = (scripts: ScriptEvaluator): TaskType => ({
  ...inlineSpec,
  schedule(ctx, request) {
    return [ctx.createTask(request, { taskType: 'INLINE', status: 'IN_PROGRESS', startTime: ctx.now })];
  },
  async execute(ctx, task) {
    const input = task.inputData;
    const evaluator =
      typeof input.evaluatorType === 'string' && input.evaluatorType !== ''
        ? input.evaluatorType
        : 'javascript';
    const expression = input.expression;
    // Bad configuration is not worth retrying: both end the task with a terminal error (§5.16).
    if (typeof expression !== 'string' || expression.trim() === '') {
      ctx.setStatus(
        task,
        'FAILED_WITH_TERMINAL_ERROR',
        "Empty 'expression' in INLINE task's input parameters. A non-empty String value must be provided.",
      );
      return true;
    }
    if (evaluator === 'value-param') {
      task.outputData = { result: input[expression] ?? null };
      ctx.setStatus(task, 'COMPLETED');
      return true;
    }
    if (!isScriptEvaluator(evaluator)) {
      ctx.setStatus(task, 'FAILED_WITH_TERMINAL_ERROR', `Unknown evaluator '${evaluator}' in INLINE task.`);
      return true;
    }
    try {
      task.outputData = { result: await scripts.evaluate(expression, input) };
      ctx.setStatus(task, 'COMPLETED');
    } catch (error) {
      // Syntax, runtime, timeout and memory failures alike: FAILED, so a task definition may retry it.
      const reason = errorMessage(error);
      task.outputData = { error: reason };
      ctx.setStatus(task, 'FAILED', reason);
    }
    return true;
  },
});
