/**
 * The actions an event handler may take (docs/conductor-compat.md §2.8). A module of its own,
 * importing nothing, so the management UI's handler editor checks against the same list without
 * bringing the server's code into its bundle.
 */
export const ACTIONS = [
  'start_workflow',
  'complete_task',
  'fail_task',
  'terminate_workflow',
  'update_workflow_variables',
  // This service's own: the payload pushed into a running workflow's message queue (docs/api.md
  // "Events" 3: external event streams can feed the queue).
  'push_workflow_message',
] as const;
