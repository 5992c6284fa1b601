/**
 * /api/tasks: the worker task API (reference/conductor.md §1.1, search excepted). Polls answer 204
 * (single) or [] (batch) when nothing is ready; updates answer the task id as text/plain.
 */
import { toApiTask } from '../../model/api.ts';
import { NotFoundError, ValidationError } from '../../model/errors.ts';
import type { Engine } from '../../runtime/engine.ts';
import { parseStatus, parseTaskResult } from '../../tasks/task-result.ts';
import { ensureIsObject } from '../body.ts';
import { emptyOk, json, noContent, text } from '../responses.ts';
import type { RouteContext, RouteDef } from '../router.ts';

/** Long polls wait at most this long (Conductor rejects more than 5 s with a 400). */
const MAX_LONG_POLL_MS = 5000;

export function taskRoutes(engine: Engine): RouteDef[] {
  const tasks = engine.tasks;
  const base = '/api/tasks';
  const pollOptions = (ctx: RouteContext, count: number, timeoutMs: number) => ({
    workerId: ctx.query.string('workerid') ?? ctx.query.string('workerId'),
    domain: ctx.query.string('domain'),
    count,
    timeoutMs,
  });
  return [
    {
      method: 'GET',
      path: `${base}/poll/{taskType}`,
      handler: async (ctx) => {
        const [task] = await tasks.poll(ctx.params.taskType as string, pollOptions(ctx, 1, 0));
        return task ? json(toApiTask(task)) : noContent();
      },
    },
    {
      method: 'GET',
      path: `${base}/poll/batch/{taskType}`,
      handler: async (ctx) => {
        const timeout = ctx.query.int('timeout', 100, { min: 0 });
        if (timeout > MAX_LONG_POLL_MS) {
          throw new ValidationError('Long Poll Timeout value cannot be more than 5 seconds', [
            { path: 'timeout', message: 'must be at most 5000', invalidValue: timeout },
          ]);
        }
        const count = ctx.query.int('count', 1, { min: 1, max: 1000 });
        const polled = await tasks.poll(ctx.params.taskType as string, pollOptions(ctx, count, timeout));
        return json(polled.map(toApiTask));
      },
    },
    {
      method: 'POST',
      path: base,
      handler: async (ctx) => {
        const result = parseTaskResult(await ctx.json());
        await tasks.update(result);
        return text(result.taskId);
      },
    },
    {
      method: 'POST',
      path: `${base}/update-v2`,
      handler: async (ctx) => {
        const result = parseTaskResult(await ctx.json());
        const updated = await tasks.update(result);
        if (
          !updated ||
          !['COMPLETED', 'FAILED', 'FAILED_WITH_TERMINAL_ERROR', 'CANCELED'].includes(updated.status)
        ) {
          return noContent();
        }
        const [next] = await tasks.poll(updated.taskType, {
          workerId: result.workerId ?? updated.workerId,
          domain: updated.domain,
          count: 1,
          timeoutMs: 0,
        });
        return next ? json(toApiTask(next)) : noContent();
      },
    },
    {
      method: 'POST',
      path: `${base}/{workflowId}/{taskRefName}/{status}`,
      handler: async (ctx) => {
        const status = parseStatus(ctx.params.status);
        const output = outputBody(await ctx.json());
        const task = await tasks.updateByRef(
          ctx.params.workflowId as string,
          ctx.params.taskRefName as string,
          status,
          output,
          ctx.query.string('workerid'),
        );
        return task ? text(task.taskId) : emptyOk();
      },
    },
    {
      method: 'POST',
      path: `${base}/{workflowId}/{taskRefName}/{status}/sync`,
      handler: async (ctx) => {
        const workflowId = ctx.params.workflowId as string;
        const status = parseStatus(ctx.params.status);
        const before = await engine.reader.record(workflowId);
        const task = await tasks.updateByRef(
          workflowId,
          ctx.params.taskRefName as string,
          status,
          outputBody(await ctx.json()),
          ctx.query.string('workerid'),
        );
        if (!task)
          throw new NotFoundError(
            `Found no running task ${String(ctx.params.taskRefName)} in workflow ${workflowId}`,
          );
        await engine.waitForProgress(workflowId, before.rev, MAX_LONG_POLL_MS);
        return json(await engine.reader.get(workflowId, true));
      },
    },
    {
      method: 'POST',
      path: `${base}/{workflowId}/{status}/signal`,
      handler: async (ctx) => {
        await tasks.signal(
          ctx.params.workflowId as string,
          parseStatus(ctx.params.status),
          outputBody(await ctx.json()),
        );
        return emptyOk();
      },
    },
    {
      method: 'POST',
      path: `${base}/{workflowId}/{status}/signal/sync`,
      handler: async (ctx) => {
        const workflowId = ctx.params.workflowId as string;
        const before = await engine.reader.record(workflowId);
        const returnStrategy = ctx.query.string('returnStrategy') ?? 'TARGET_WORKFLOW';
        const timeoutMs = ctx.query.int('timeoutMillis', 5000, { min: 0, max: 30_000 });
        const task = await tasks.signal(
          workflowId,
          parseStatus(ctx.params.status),
          outputBody(await ctx.json()),
        );
        if (!task) throw new NotFoundError(`No blocking task found in workflow ${workflowId}`);
        await engine.waitForProgress(workflowId, before.rev, timeoutMs);
        const run = await engine.reader.record(workflowId);
        return json({
          responseType: returnStrategy,
          targetWorkflowId: run.workflowId,
          targetWorkflowStatus: run.status,
          workflowId: run.workflowId,
          correlationId: run.correlationId,
          input: run.input,
          output: run.output,
          priority: run.priority,
          variables: run.variables,
          tasks: (await engine.reader.tasksOf(run)).map(toApiTask),
          createTime: run.createTime,
          updateTime: run.updateTime,
          status: run.status,
        });
      },
    },
    {
      method: 'GET',
      path: `${base}/{taskId}`,
      handler: async (ctx) => json(toApiTask(await tasks.getTask(ctx.params.taskId as string))),
    },
    {
      method: 'POST',
      path: `${base}/{taskId}/log`,
      handler: async (ctx) => {
        const task = await tasks.getTask(ctx.params.taskId as string);
        const raw = await ctx.text();
        // The SDKs send the line as a JSON string; plain text is accepted too.
        let line = raw;
        try {
          const parsed: unknown = JSON.parse(raw);
          if (typeof parsed === 'string') line = parsed;
        } catch {
          // not JSON: the raw text is the line
        }
        await tasks.appendLogs(task.taskId, [line]);
        return emptyOk();
      },
    },
    {
      method: 'GET',
      path: `${base}/{taskId}/log`,
      handler: async (ctx) => {
        const task = await tasks.getTask(ctx.params.taskId as string);
        const logs = await tasks.logs(task.taskId);
        return logs.length === 0 ? noContent() : json(logs);
      },
    },
    {
      method: 'GET',
      path: `${base}/queue/sizes`,
      handler: async (ctx) => json(await tasks.queueSizes(ctx.query.list('taskType'))),
    },
    {
      method: 'GET',
      path: `${base}/queue/size`,
      handler: async (ctx) => {
        const type = ctx.query.required('taskType');
        return json(await tasks.queueSize(type, ctx.query.string('domain')));
      },
    },
    { method: 'GET', path: `${base}/queue/all`, handler: async () => json(await tasks.allQueues()) },
    {
      method: 'GET',
      path: `${base}/queue/all/verbose`,
      handler: async () => {
        const sizes = await tasks.allQueues();
        return json(
          Object.fromEntries(Object.entries(sizes).map(([q, size]) => [q, { a: { size, uacked: 0 } }])),
        );
      },
    },
    {
      method: 'GET',
      path: `${base}/queue/polldata`,
      handler: async (ctx) => {
        const type = ctx.query.required('taskType');
        return json(await tasks.pollData(type));
      },
    },
    { method: 'GET', path: `${base}/queue/polldata/all`, handler: async () => json(await tasks.pollData()) },
    {
      method: 'POST',
      path: `${base}/queue/requeue/{taskType}`,
      handler: async (ctx) => text(String(await tasks.requeue(ctx.params.taskType as string))),
    },
  ];
}

function outputBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  return ensureIsObject(body, 'task output');
}
