/**
 * Worker polls. A single poll answers 204 when nothing is ready; a batch poll answers [] and may
 * wait up to 5 s for work (Conductor's long poll).
 */

import { integerValue, paramsOf, pathParams, stringValue } from '../../http/contract.ts';
import type { QueryParams } from '../../http/request.ts';
import { json, noContent } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import { toApiTask } from '../../model/api.ts';
import { ValidationError } from '../../model/errors.ts';
import type { TaskService } from '../service.ts';
import { MAX_LONG_POLL_MS } from './contracts.ts';

const taskTypeParam = pathParams({ taskType: stringValue('The task type to poll') });

const pollerQuery = {
  workerid: stringValue('The polling worker'),
  workerId: stringValue('The polling worker (alternative spelling)'),
  domain: stringValue('Poll the queue of this domain'),
};

const pollOptions = (query: QueryParams, count: number, timeoutMs: number) => ({
  workerId: query.string('workerid') ?? query.string('workerId'),
  domain: query.string('domain'),
  count,
  timeoutMs,
});

const pollOne = (tasks: TaskService) =>
  route({
    method: 'GET',
    path: '/api/tasks/poll/{taskType}',
    permission: 'tasks:work',
    summary: 'Poll for one task of a type (204 when none is ready)',
    request: { params: taskTypeParam, query: paramsOf(pollerQuery) },
    responds: 'application/json',
    returns: 'Task',
    handler: async (ctx) => {
      const [task] = await tasks.poll(ctx.param('taskType'), pollOptions(ctx.query, 1, 0));
      return task ? json(toApiTask(task)) : noContent();
    },
  });

const pollBatch = (tasks: TaskService) =>
  route({
    method: 'GET',
    path: '/api/tasks/poll/batch/{taskType}',
    permission: 'tasks:work',
    summary: 'Poll for up to count tasks of a type, waiting up to timeout ms',
    request: {
      params: taskTypeParam,
      query: paramsOf({
        timeout: integerValue({ minimum: 0 }, 'Long-poll wait in ms, at most 5000 (default 100)'),
        count: integerValue({ minimum: 1, maximum: 1000 }, 'How many tasks at most (default 1)'),
        ...pollerQuery,
      }),
    },
    responds: 'application/json',
    returns: 'Task[]',
    handler: async (ctx) => {
      const timeout = ctx.query.int('timeout', 100);
      if (timeout > MAX_LONG_POLL_MS) {
        throw new ValidationError('Long Poll Timeout value cannot be more than 5 seconds', [
          { path: 'timeout', message: 'must be at most 5000', invalidValue: timeout },
        ]);
      }
      const count = ctx.query.int('count', 1);
      const polled = await tasks.poll(ctx.param('taskType'), pollOptions(ctx.query, count, timeout));
      return json(polled.map(toApiTask));
    },
  });

export function pollRoutes(tasks: TaskService): RouteDef[] {
  return [pollOne(tasks), pollBatch(tasks)];
}
