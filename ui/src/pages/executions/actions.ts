/**
 * The operations an execution's page offers, and which of them its status allows (the service's
 * own rules: pause a running run, resume a paused one, terminate either; retry a failed, timed-out
 * or terminated one; restart or rerun any run that is over). Every one but pause and resume asks
 * before acting. Pure, so it is unit-tested.
 */
import { api } from '../../api/client.ts';

export type ExecutionAction = 'pause' | 'resume' | 'terminate' | 'retry' | 'restart' | 'rerun';

export interface ActionInfo {
  action: ExecutionAction;
  label: string;
  /** Asks before acting (the run's history changes or it stops for good). */
  confirm?: string;
}

export const ACTIONS: readonly ActionInfo[] = [
  { action: 'pause', label: 'Pause' },
  { action: 'resume', label: 'Resume' },
  {
    action: 'retry',
    label: 'Retry',
    confirm: 'Retry this run from its failed task? The run goes on from there with the tasks it completed.',
  },
  {
    action: 'restart',
    label: 'Restart',
    confirm: 'Restart this run from the beginning? Its tasks so far are discarded.',
  },
  {
    action: 'rerun',
    label: 'Rerun',
    confirm: 'Rerun this run from the start with the same input? Its tasks so far are discarded.',
  },
  { action: 'terminate', label: 'Terminate', confirm: 'Terminate this run? It cannot continue afterwards.' },
];

const OVER = ['COMPLETED', 'FAILED', 'TIMED_OUT', 'TERMINATED'];

/** Whether the run's status allows the action. */
export function allowed(action: ExecutionAction, status: string): boolean {
  switch (action) {
    case 'pause':
      return status === 'RUNNING';
    case 'resume':
      return status === 'PAUSED';
    case 'terminate':
      return status === 'RUNNING' || status === 'PAUSED';
    case 'retry':
      return status === 'FAILED' || status === 'TIMED_OUT' || status === 'TERMINATED';
    case 'restart':
    case 'rerun':
      return OVER.includes(status);
  }
}

/** Performs the action through the API; `reason` goes with a termination. */
export async function perform(action: ExecutionAction, workflowId: string, reason?: string): Promise<void> {
  const params = { workflowId };
  switch (action) {
    case 'pause':
      return api('PUT /api/workflow/{workflowId}/pause', { params });
    case 'resume':
      return api('PUT /api/workflow/{workflowId}/resume', { params });
    case 'terminate':
      return api('DELETE /api/workflow/{workflowId}', { params, query: { reason: reason || undefined } });
    case 'retry':
      return api('POST /api/workflow/{workflowId}/retry', { params });
    case 'restart':
      return api('POST /api/workflow/{workflowId}/restart', { params });
    case 'rerun':
      await api('POST /api/workflow/{workflowId}/rerun', { params, body: {} });
      return;
  }
}
