/** Worker queue introspection: sizes, poll data, and putting a type's tasks back in its queue. */

import { paramsOf, pathParams, stringList, stringValue } from '../../http/contract.ts';
import { json, text } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import type { TaskService } from '../service.ts';

const requiredTaskType = paramsOf({ taskType: stringValue('The task type') }, ['taskType']);

const queueSizes = (tasks: TaskService) =>
  route({
    method: 'GET',
    path: '/api/tasks/queue/sizes',
    permission: 'tasks:read',
    summary: 'Queue sizes of the given task types',
    request: { query: paramsOf({ taskType: stringList('Task types (repeated or comma-separated)') }) },
    responds: 'application/json',
    handler: async (ctx) => json(await tasks.queueSizes(ctx.query.list('taskType'))),
  });

const queueSize = (tasks: TaskService) =>
  route({
    method: 'GET',
    path: '/api/tasks/queue/size',
    permission: 'tasks:read',
    summary: 'Queue size of one task type (and domain)',
    request: {
      query: paramsOf({ taskType: stringValue('The task type'), domain: stringValue('The domain') }, [
        'taskType',
      ]),
    },
    responds: 'application/json',
    handler: async (ctx) =>
      json(await tasks.queueSize(ctx.query.required('taskType'), ctx.query.string('domain'))),
  });

const allQueues = (tasks: TaskService) =>
  route({
    method: 'GET',
    path: '/api/tasks/queue/all',
    permission: 'tasks:read',
    summary: 'Sizes of every worker queue',
    responds: 'application/json',
    handler: async () => json(await tasks.allQueues()),
  });

const allQueuesVerbose = (tasks: TaskService) =>
  route({
    method: 'GET',
    path: '/api/tasks/queue/all/verbose',
    permission: 'tasks:read',
    summary: "Sizes of every worker queue in Conductor's verbose shape",
    responds: 'application/json',
    handler: async () => {
      const sizes = await tasks.allQueues();
      return json(
        Object.fromEntries(Object.entries(sizes).map(([q, size]) => [q, { a: { size, uacked: 0 } }])),
      );
    },
  });

const pollData = (tasks: TaskService) =>
  route({
    method: 'GET',
    path: '/api/tasks/queue/polldata',
    permission: 'tasks:read',
    summary: 'Last poll of each domain of a task type',
    request: { query: requiredTaskType },
    responds: 'application/json',
    handler: async (ctx) => json(await tasks.pollData(ctx.query.required('taskType'))),
  });

const allPollData = (tasks: TaskService) =>
  route({
    method: 'GET',
    path: '/api/tasks/queue/polldata/all',
    permission: 'tasks:read',
    summary: 'Last poll of every task type',
    responds: 'application/json',
    handler: async () => json(await tasks.pollData()),
  });

const requeue = (tasks: TaskService) =>
  route({
    method: 'POST',
    path: '/api/tasks/queue/requeue/{taskType}',
    permission: 'runs:manage',
    summary: "Put a type's scheduled tasks back in its queue; answers how many",
    request: { params: pathParams({ taskType: stringValue('The task type') }) },
    responds: 'text/plain',
    handler: async (ctx) => text(String(await tasks.requeue(ctx.param('taskType')))),
  });

export function queueRoutes(tasks: TaskService): RouteDef[] {
  return [
    queueSizes(tasks),
    queueSize(tasks),
    allQueues(tasks),
    allQueuesVerbose(tasks),
    pollData(tasks),
    allPollData(tasks),
    requeue(tasks),
  ];
}
