/** One task by id, and its execution log (appended by workers one line at a time). */

import { pathParams, stringValue } from '../../http/contract.ts';
import { emptyOk, json, noContent } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import { toApiTask } from '../../model/api.ts';
import type { TaskService } from '../service.ts';

const taskIdParam = pathParams({ taskId: stringValue('The task') });

const getTask = (tasks: TaskService) =>
  route({
    method: 'GET',
    path: '/api/tasks/{taskId}',
    permission: 'tasks:read',
    summary: 'Read one task',
    request: { params: taskIdParam },
    responds: 'application/json',
    returns: 'Task',
    handler: async (ctx) => json(toApiTask(await tasks.getTask(ctx.param('taskId')))),
  });

const appendLog = (tasks: TaskService) =>
  route({
    method: 'POST',
    path: '/api/tasks/{taskId}/log',
    permission: 'tasks:work',
    // The body is one line, sent by the SDKs as a JSON string; plain text is accepted too, so it
    // has no JSON contract.
    summary: "Append a line to a task's log",
    request: { params: taskIdParam },
    handler: async (ctx) => {
      const task = await tasks.getTask(ctx.param('taskId'));
      const raw = await ctx.text();
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
  });

const readLogs = (tasks: TaskService) =>
  route({
    method: 'GET',
    path: '/api/tasks/{taskId}/log',
    permission: 'tasks:read',
    summary: "Read a task's log (204 when empty)",
    request: { params: taskIdParam },
    responds: 'application/json',
    handler: async (ctx) => {
      const task = await tasks.getTask(ctx.param('taskId'));
      const logs = await tasks.logs(task.taskId);
      return logs.length === 0 ? noContent() : json(logs);
    },
  });

export function taskLogRoutes(tasks: TaskService): RouteDef[] {
  return [getTask(tasks), appendLog(tasks), readLogs(tasks)];
}
