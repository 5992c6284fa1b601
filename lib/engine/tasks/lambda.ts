/**
 * LAMBDA (docs/conductor-compat.md §5.17), the deprecated alias of INLINE: `scriptExpression` is a
 * JavaScript function body (`return $.a + 1;`) run in the same sandbox as INLINE, with the resolved
 * input as `$`. Output `{result}`; a script failure is FAILED with `output.error`.
 */
import { errorMessage } from '../../model/errors.ts';
import { lambdaSpec } from '../../model/task-types/lambda.ts';
import type { ScriptEvaluator } from '../script/evaluator.ts';
import type { TaskType } from '../task-type.ts';

export const lambdaTask = (scripts: ScriptEvaluator): TaskType => ({
  ...lambdaSpec,
  schedule(ctx, request) {
    return [ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now })];
  },
  async execute(ctx, task) {
    const body = task.inputData.scriptExpression;
    if (typeof body !== 'string' || body.trim() === '') {
      ctx.setStatus(
        task,
        'FAILED_WITH_TERMINAL_ERROR',
        "Empty 'scriptExpression' in LAMBDA task's input parameters.",
      );
      return true;
    }
    try {
      // A function body: wrapped so `return` works, as Conductor's Nashorn/GraalJS wrapper does.
      task.outputData = { result: await scripts.evaluate(`(function () {\n${body}\n})()`, task.inputData) };
      ctx.setStatus(task, 'COMPLETED');
    } catch (error) {
      const reason = errorMessage(error);
      task.outputData = { error: reason };
      ctx.setStatus(task, 'FAILED', reason);
    }
    return true;
  },
});
