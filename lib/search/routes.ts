/**
 * The search routes (docs/api.md "Search", docs/conductor-compat.md §6): workflow search and search by tasks
 * under /api/workflow, task search under /api/tasks. `size` is at most 5,000 (more is a 400), `start`
 * at least 0; a malformed query, free text or sort is a 400 naming what is wrong.
 */

import { integerValue, paramsOf, stringValue } from '../http/contract.ts';
import type { QueryParams } from '../http/request.ts';
import { json } from '../http/responses.ts';
import { type RouteDef, route } from '../http/router.ts';
import { toApiTask, toApiWorkflow } from '../model/api.ts';
import type { WorkflowRecord } from '../model/execution.ts';
import { MAX_PAGE, type SearchParams, type SearchService } from './service.ts';

const searchQuery = paramsOf({
  start: integerValue({ minimum: 0 }, 'Offset of the first hit (default 0)'),
  size: integerValue({ minimum: 0, maximum: MAX_PAGE }, `Page size (default 100, at most ${MAX_PAGE})`),
  sort: stringValue('field:ASC or field:DESC, several separated by , or | (default startTime:DESC)'),
  freeText: stringValue('Free text: field:"value", a bare term, or * (default)'),
  query: stringValue('A where clause: =, !=, >, >=, <, <=, IN (...), NOT IN (...), AND, OR, parentheses'),
  skipCache: stringValue('Accepted and ignored (SDK compatibility)'),
});

const paramsOfRequest = (ctx: { query: QueryParams }): SearchParams => ({
  start: ctx.query.int('start', 0),
  size: ctx.query.int('size', 100),
  sort: ctx.query.string('sort'),
  freeText: ctx.query.string('freeText'),
  query: ctx.query.string('query'),
});

const fullRun = (record: WorkflowRecord) => {
  const { tasks: _tasks, ...run } = toApiWorkflow(record, undefined);
  return run;
};

/** A page of results, each shown through `view`. */
const shown = <T, V>(found: { totalHits: number; results: T[] }, view: (item: T) => V) => ({
  totalHits: found.totalHits,
  results: found.results.map(view),
});

/** Every search route: GET with the search parameters, answering a SearchResult. */
const searchRoute = (path: string, summary: string, answer: (params: SearchParams) => Promise<unknown>) =>
  route({
    method: 'GET',
    path,
    permission: 'runs:read',
    summary,
    request: { query: searchQuery },
    responds: 'application/json',
    returns: 'SearchResult',
    handler: async (ctx) => json(await answer(paramsOfRequest(ctx))),
  });

export function workflowSearchRoutes(search: SearchService): RouteDef[] {
  return [
    searchRoute('/api/workflow/search', 'Search runs: SearchResult of WorkflowSummary', (params) =>
      search.workflowSummaries(params),
    ),
    searchRoute(
      '/api/workflow/search-v2',
      'Search runs: SearchResult of full runs (without tasks)',
      async (params) => shown(await search.workflows(params), fullRun),
    ),
    searchRoute(
      '/api/workflow/search-by-tasks',
      'Runs with a task matching the query (task fields): SearchResult of WorkflowSummary',
      (params) => search.workflowSummariesByTasks(params),
    ),
    searchRoute(
      '/api/workflow/search-by-tasks-v2',
      'Runs with a task matching the query: SearchResult of full runs (without tasks)',
      async (params) => shown(await search.workflowsByTasks(params), fullRun),
    ),
  ];
}

export function taskSearchRoutes(search: SearchService): RouteDef[] {
  return [
    searchRoute('/api/tasks/search', 'Search tasks: SearchResult of TaskSummary', (params) =>
      search.taskSummaries(params),
    ),
    searchRoute('/api/tasks/search-v2', 'Search tasks: SearchResult of full tasks', async (params) =>
      shown(await search.tasks(params), toApiTask),
    ),
  ];
}
