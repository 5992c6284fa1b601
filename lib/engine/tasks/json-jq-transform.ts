/**
 * JSON_JQ_TRANSFORM (docs/conductor-compat.md §5.18): runs the jq filter `queryExpression` over the
 * whole resolved input and completes with `{result: first, resultList: all}`. A jq error (syntax,
 * runtime, or the time limit) fails the task (FAILED, retriable) with jq's message, also kept as
 * `output.error`. jq runs in a worker thread bounded in time (../jq/jq.ts).
 */
import { errorMessage } from '../../model/errors.ts';
import { jsonJqTransformSpec } from '../../model/task-types/json-jq-transform.ts';
import type { JqEvaluator } from '../jq/jq.ts';
import type { TaskType } from '../task-type.ts';

export const jsonJqTransformTask = (jq: () => JqEvaluator): TaskType => ({
  ...jsonJqTransformSpec,
  schedule(ctx, request) {
    return [ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now })];
  },
  async execute(ctx, task) {
    const query = task.inputData.queryExpression;
    if (typeof query !== 'string' || query.trim() === '') {
      const reason = "Missing 'queryExpression' in JSON_JQ_TRANSFORM task's input parameters.";
      task.outputData = { error: reason };
      ctx.setStatus(task, 'FAILED', reason);
      return true;
    }
    try {
      const results = await jq().evaluate(query, task.inputData);
      task.outputData = { result: results[0] ?? null, resultList: results };
      ctx.setStatus(task, 'COMPLETED');
    } catch (error) {
      const reason = errorMessage(error);
      task.outputData = { error: reason };
      ctx.setStatus(task, 'FAILED', reason);
    }
    return true;
  },
});
