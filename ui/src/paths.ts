/** The UI's own paths, in one place (app.tsx declares the routes that match them). */
const enc = encodeURIComponent;

export const paths = {
  schemas: '/schemas',
  newSchema: '/schemas/new',
  schema: (name: string, version?: number) =>
    `/schemas/edit/${enc(name)}${version === undefined ? '' : `/${version}`}`,
  workflowDefs: '/definitions/workflows',
  newWorkflowDef: '/definitions/workflows/new',
  workflowDef: (name: string, version?: number) =>
    `/definitions/workflows/edit/${enc(name)}${version === undefined ? '' : `/${version}`}`,
  taskDefs: '/definitions/tasks',
  newTaskDef: '/definitions/tasks/new',
  taskDef: (name: string) => `/definitions/tasks/edit/${enc(name)}`,
  eventHandlers: '/definitions/event-handlers',
  newEventHandler: '/definitions/event-handlers/new',
  eventHandler: (name: string) => `/definitions/event-handlers/edit/${enc(name)}`,
  eventMonitor: '/event-monitor',
  eventExecutions: (name: string) => `/event-monitor/${enc(name)}`,
  queueMonitor: '/queue-monitor',
  scheduleExecutions: (scheduleName?: string) =>
    `/schedules/executions${scheduleName ? `?schedule=${enc(scheduleName)}` : ''}`,
  execution: (workflowId: string) => `/executions/${enc(workflowId)}`,
};
