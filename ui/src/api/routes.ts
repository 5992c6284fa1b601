/**
 * The API routes the UI calls, keyed `METHOD path` exactly as the server declares them with
 * `route({...})` (lib/http/router.ts); a unit test (test/ui/logic/api-routes.test.ts) checks that
 * every key here is a registered route, so a renamed server route breaks the build, not the page.
 * Response and body types come from the server's own model.
 */

import type { EventExecutionView, EventHandler } from '../../../lib/events/model.ts';
import type { ApiTask, ApiWorkflow } from '../../../lib/model/api.ts';
import type { TaskDef, WorkflowDef } from '../../../lib/model/definitions.ts';
import type { ScheduleExecution, WorkflowSchedule } from '../../../lib/scheduler/model.ts';
import type { SchemaInput, SchemaRecord } from '../../../lib/schemas/model.ts';
import type { WorkflowSummary } from '../../../lib/search/summaries.ts';
import type { PollData, TaskExecLog } from '../../../lib/store/ports.ts';

export type {
  ApiTask,
  ApiWorkflow,
  EventExecutionView,
  EventHandler,
  PollData,
  ScheduleExecution,
  SchemaInput,
  SchemaRecord,
  TaskDef,
  TaskExecLog,
  WorkflowDef,
  WorkflowSchedule,
  WorkflowSummary,
};

/** A page of search hits (SearchResult). */
export interface SearchResult<T> {
  totalHits: number;
  results: T[];
}

/** One event handler with the messages it handled (`GET /api/event/execution`). */
export interface EventHandlerActivity {
  name: string;
  event: string;
  active: boolean;
  numberOfActions: number;
  numberOfMessages: number;
}

/** What the Run Workflow form sends (a StartWorkflowRequest). */
export interface StartWorkflowRequest {
  name: string;
  version?: number;
  input?: Record<string, unknown>;
  correlationId?: string;
}

export const API_ROUTES = [
  'GET /api/schema',
  'GET /api/schema/{name}',
  'GET /api/schema/{name}/{version}',
  'POST /api/schema',
  'DELETE /api/schema/{name}',
  'DELETE /api/schema/{name}/{version}',
  'GET /api/metadata/workflow',
  'GET /api/metadata/workflow/{name}',
  'POST /api/metadata/workflow',
  'PUT /api/metadata/workflow',
  'DELETE /api/metadata/workflow/{name}/{version}',
  'GET /api/metadata/taskdefs',
  'GET /api/metadata/taskdefs/{taskType}',
  'POST /api/metadata/taskdefs',
  'PUT /api/metadata/taskdefs',
  'DELETE /api/metadata/taskdefs/{taskType}',
  'GET /api/version',
  // Executions (pages/executions/).
  'GET /api/workflow/search',
  'GET /api/workflow/{workflowId}',
  'POST /api/workflow',
  'PUT /api/workflow/{workflowId}/pause',
  'PUT /api/workflow/{workflowId}/resume',
  'POST /api/workflow/{workflowId}/retry',
  'POST /api/workflow/{workflowId}/restart',
  'POST /api/workflow/{workflowId}/rerun',
  'DELETE /api/workflow/{workflowId}',
  'GET /api/tasks/{taskId}/log',
  // Schedules (pages/schedules/).
  'GET /api/scheduler/schedules',
  'GET /api/scheduler/schedules/{name}',
  'POST /api/scheduler/schedules',
  'DELETE /api/scheduler/schedules/{name}',
  'PUT /api/scheduler/schedules/{name}/pause',
  'PUT /api/scheduler/schedules/{name}/resume',
  'GET /api/scheduler/nextFewSchedules',
  'GET /api/scheduler/search/executions',
  // Event handlers and the event monitor (pages/event-handlers/, pages/event-monitor.tsx).
  'GET /api/event',
  'POST /api/event',
  'PUT /api/event',
  'GET /api/event/handler/{name}',
  'DELETE /api/event/{name}',
  'GET /api/event/execution',
  'GET /api/event/execution/{name}',
  // The queue monitor (pages/queue-monitor.tsx).
  'GET /api/tasks/queue/all',
  'GET /api/tasks/queue/polldata/all',
] as const;

export type RouteKey = (typeof API_ROUTES)[number];

type Bool = boolean | undefined;

/** Per route: the query it takes, the body it sends and what it answers. */
export interface RouteTypes {
  'GET /api/schema': { query: { short?: Bool }; body: never; response: SchemaRecord[] };
  'GET /api/schema/{name}': { query: never; body: never; response: SchemaRecord };
  'GET /api/schema/{name}/{version}': { query: never; body: never; response: SchemaRecord };
  'POST /api/schema': {
    query: { newVersion?: Bool };
    body: SchemaInput | SchemaInput[];
    response: undefined;
  };
  'DELETE /api/schema/{name}': { query: never; body: never; response: undefined };
  'DELETE /api/schema/{name}/{version}': { query: never; body: never; response: undefined };
  'GET /api/metadata/workflow': {
    query: { short?: Bool; name?: string };
    body: never;
    response: WorkflowDef[];
  };
  'GET /api/metadata/workflow/{name}': { query: { version?: number }; body: never; response: WorkflowDef };
  'POST /api/metadata/workflow': { query: { overwrite?: Bool }; body: WorkflowDef; response: undefined };
  'PUT /api/metadata/workflow': {
    query: { newVersion?: Bool };
    body: WorkflowDef[];
    response: { bulkErrorResults: Record<string, string>; bulkSuccessfulResults: string[] };
  };
  'DELETE /api/metadata/workflow/{name}/{version}': { query: never; body: never; response: undefined };
  'GET /api/metadata/taskdefs': { query: never; body: never; response: TaskDef[] };
  'GET /api/metadata/taskdefs/{taskType}': { query: never; body: never; response: TaskDef };
  'POST /api/metadata/taskdefs': { query: never; body: TaskDef[]; response: unknown };
  'PUT /api/metadata/taskdefs': { query: never; body: TaskDef; response: unknown };
  'DELETE /api/metadata/taskdefs/{taskType}': { query: never; body: never; response: undefined };
  'GET /api/version': { query: never; body: never; response: string };
  'GET /api/workflow/search': {
    query: { start?: number; size?: number; sort?: string; freeText?: string; query?: string };
    body: never;
    response: SearchResult<WorkflowSummary>;
  };
  'GET /api/workflow/{workflowId}': { query: { includeTasks?: Bool }; body: never; response: ApiWorkflow };
  'POST /api/workflow': { query: never; body: StartWorkflowRequest; response: string };
  'PUT /api/workflow/{workflowId}/pause': { query: never; body: never; response: undefined };
  'PUT /api/workflow/{workflowId}/resume': { query: never; body: never; response: undefined };
  'POST /api/workflow/{workflowId}/retry': {
    query: { resumeSubworkflowTasks?: Bool };
    body: never;
    response: undefined;
  };
  'POST /api/workflow/{workflowId}/restart': {
    query: { useLatestDefinitions?: Bool };
    body: never;
    response: undefined;
  };
  'POST /api/workflow/{workflowId}/rerun': {
    query: never;
    body: { workflowInput?: Record<string, unknown>; reRunFromTaskId?: string };
    response: string;
  };
  'DELETE /api/workflow/{workflowId}': { query: { reason?: string }; body: never; response: undefined };
  'GET /api/tasks/{taskId}/log': { query: never; body: never; response: TaskExecLog[] };
  'GET /api/scheduler/schedules': { query: never; body: never; response: WorkflowSchedule[] };
  'GET /api/scheduler/schedules/{name}': { query: never; body: never; response: WorkflowSchedule };
  'POST /api/scheduler/schedules': { query: never; body: WorkflowSchedule; response: unknown };
  'DELETE /api/scheduler/schedules/{name}': { query: never; body: never; response: undefined };
  'PUT /api/scheduler/schedules/{name}/pause': { query: never; body: never; response: undefined };
  'PUT /api/scheduler/schedules/{name}/resume': { query: never; body: never; response: undefined };
  'GET /api/scheduler/nextFewSchedules': {
    query: { cronExpression: string; scheduleStartTime?: number; scheduleEndTime?: number; limit?: number };
    body: never;
    response: number[];
  };
  'GET /api/scheduler/search/executions': {
    query: { query?: string; freeText?: string; start?: number; size?: number; sort?: string };
    body: never;
    response: SearchResult<ScheduleExecution>;
  };
  'GET /api/event': { query: never; body: never; response: EventHandler[] };
  'POST /api/event': { query: never; body: EventHandler; response: undefined };
  'PUT /api/event': { query: never; body: EventHandler; response: undefined };
  'GET /api/event/handler/{name}': { query: never; body: never; response: EventHandler };
  'DELETE /api/event/{name}': { query: never; body: never; response: undefined };
  'GET /api/event/execution': { query: never; body: never; response: SearchResult<EventHandlerActivity> };
  'GET /api/event/execution/{name}': {
    query: { from?: number };
    body: never;
    response: EventExecutionView[];
  };
  'GET /api/tasks/queue/all': { query: never; body: never; response: Record<string, number> };
  'GET /api/tasks/queue/polldata/all': { query: never; body: never; response: PollData[] };
}

/** `{name}` segments of a path literal, as the values to put in them. */
export type PathParams<K extends string> = K extends `${string}{${infer P}}${infer Rest}`
  ? { [key in P]: string | number } & PathParams<Rest>
  : unknown;
