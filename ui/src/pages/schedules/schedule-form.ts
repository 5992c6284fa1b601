/**
 * The schedule editor's form and the WorkflowSchedule it saves. The form edits one cron expression
 * and zone; a schedule with several `cronSchedules` keeps them (the form shows the first, read-only)
 * and every field the form does not show is kept as it was. Pure, so it is unit-tested.
 */
import type { WorkflowSchedule } from '../../api/routes.ts';
import { parseObject } from '../executions/json-input.ts';

export interface ScheduleForm {
  name: string;
  cronExpression: string;
  zoneId: string;
  workflowName: string;
  workflowVersion: string;
  input: string;
  correlationId: string;
  runCatchupScheduleInstances: boolean;
  paused: boolean;
  description: string;
}

export const NEW_SCHEDULE: ScheduleForm = {
  name: '',
  cronExpression: '0 0 * * * *',
  zoneId: 'UTC',
  workflowName: '',
  workflowVersion: '',
  input: '{}',
  correlationId: '',
  runCatchupScheduleInstances: false,
  paused: false,
  description: '',
};

/** Whether the schedule has more cron expressions than the form edits. */
export const hasManyCrons = (schedule: WorkflowSchedule | undefined) =>
  (schedule?.cronSchedules?.length ?? 0) > 1;

export function formOf(schedule: WorkflowSchedule): ScheduleForm {
  const request = schedule.startWorkflowRequest as {
    name?: string;
    version?: number;
    input?: unknown;
    correlationId?: string;
  };
  const first = schedule.cronSchedules?.[0];
  return {
    name: schedule.name,
    cronExpression: first?.cronExpression ?? schedule.cronExpression ?? '',
    zoneId: first?.zoneId ?? schedule.zoneId ?? 'UTC',
    workflowName: request.name ?? '',
    workflowVersion: request.version === undefined ? '' : String(request.version),
    input: JSON.stringify(request.input ?? {}, null, 2),
    correlationId: request.correlationId ?? '',
    runCatchupScheduleInstances: schedule.runCatchupScheduleInstances,
    paused: schedule.paused,
    description: schedule.description ?? '',
  };
}

/** The schedule to save, or the problems that keep the form from saving. */
export function scheduleOf(
  form: ScheduleForm,
  base?: WorkflowSchedule,
): { ok: true; schedule: WorkflowSchedule } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (form.name.trim() === '') problems.push('Name is required.');
  if (form.cronExpression.trim() === '') problems.push('Cron expression is required.');
  if (form.workflowName.trim() === '') problems.push('Workflow name is required.');
  const version = form.workflowVersion.trim();
  if (version !== '' && !/^[1-9]\d*$/.test(version))
    problems.push('Workflow version must be a positive whole number.');
  const input = parseObject(form.input);
  if (!input.ok) problems.push(`Input: ${input.problem}`);
  if (problems.length > 0 || !input.ok) return { ok: false, problems };
  const {
    nextRunTime: _next,
    cronSchedules,
    cronExpression: _cron,
    zoneId: _zone,
    startWorkflowRequest: baseRequest,
    ...kept
  } = base ?? ({} as Partial<WorkflowSchedule>);
  const request: Record<string, unknown> = {
    ...(baseRequest ?? {}),
    name: form.workflowName.trim(),
    input: input.value,
  };
  if (version === '') delete request.version;
  else request.version = Number(version);
  if (form.correlationId.trim() === '') delete request.correlationId;
  else request.correlationId = form.correlationId.trim();
  const crons = hasManyCrons(base)
    ? { cronSchedules }
    : { cronExpression: form.cronExpression.trim(), zoneId: form.zoneId.trim() || 'UTC' };
  return {
    ok: true,
    schedule: {
      ...kept,
      name: form.name.trim(),
      ...crons,
      startWorkflowRequest: request,
      runCatchupScheduleInstances: form.runCatchupScheduleInstances,
      paused: form.paused,
      ...(form.description.trim() ? { description: form.description.trim() } : { description: undefined }),
    },
  };
}
