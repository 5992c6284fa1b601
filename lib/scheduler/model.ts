/**
 * The scheduler's records (docs/api.md "Schedule", docs/conductor-compat.md §2.18-2.19) and the checks a
 * schedule passes before it is stored: one cron form, valid expressions and zones, a
 * startWorkflowRequest naming a workflow; every problem is listed in one 400 answer.
 */

import { ValidationError } from '../model/errors.ts';
import { type Tag, tagFieldProblems, tagsOf } from '../model/tags.ts';
import { isKnownZone } from '../model/zone-clock.ts';
import { Issues, isObject } from '../validation/issues.ts';
import { cronProblem } from './cron.ts';

export interface CronEntry {
  cronExpression: string;
  zoneId?: string;
}

/** A schedule as the API shows it (WorkflowSchedule). */
export interface WorkflowSchedule {
  name: string;
  cronExpression?: string;
  zoneId?: string;
  cronSchedules?: CronEntry[];
  startWorkflowRequest: Record<string, unknown>;
  runCatchupScheduleInstances: boolean;
  paused: boolean;
  pausedReason?: string;
  scheduleStartTime?: number;
  scheduleEndTime?: number;
  description?: string;
  createTime?: number;
  updatedTime?: number;
  createdBy?: string;
  updatedBy?: string;
  /** Orkes' tags (lib/model/tags.ts): stored `{key, value}`, answered with `type: METADATA`. */
  tags?: Tag[];
  /** The next fire time (as of the read); absent when the schedule has none left. */
  nextRunTime?: number;
}

/**
 * A stored schedule: the API shape (its nextRunTime is computed when read) plus the version its
 * conditional writes check and the first fire time not yet sent to the queue, which the next-run
 * index orders (absent: nothing left to fire).
 */
export interface ScheduleRecord extends Omit<WorkflowSchedule, 'nextRunTime'> {
  rev: number;
  nextDispatchTime?: number;
}

export type ExecutionState = 'POLLED' | 'EXECUTED' | 'FAILED';

/** One fire of a schedule (WorkflowScheduleExecutionModel). */
export interface ScheduleExecution {
  executionId: string;
  scheduleName: string;
  scheduledTime: number;
  executionTime: number;
  workflowName: string;
  workflowId?: string;
  reason?: string;
  stackTrace?: string;
  startWorkflowRequest: Record<string, unknown>;
  state: ExecutionState;
  zoneId: string;
  /** The cron expression that fired (one schedule may have several). */
  cronExpression: string;
  /**
   * Epoch ms after which the record is gone (`service.scheduler.execution-retention`); the DynamoDB
   * adapter writes it as `ttl`. Never shown by the API.
   */
  expiresAt?: number;
}

export const REASON_LIMIT = 999;
export const STACK_TRACE_LIMIT = 2000;
export const DEFAULT_ZONE = 'UTC';

/** The cron entries that apply: a non-empty cronSchedules wins over cronExpression/zoneId. */
export function cronEntriesOf(schedule: WorkflowSchedule): Required<CronEntry>[] {
  if (schedule.cronSchedules !== undefined && schedule.cronSchedules.length > 0) {
    return schedule.cronSchedules.map((e) => ({
      cronExpression: e.cronExpression,
      zoneId: e.zoneId ?? DEFAULT_ZONE,
    }));
  }
  if (schedule.cronExpression === undefined) return [];
  return [{ cronExpression: schedule.cronExpression, zoneId: schedule.zoneId ?? DEFAULT_ZONE }];
}

/** The workflow name a schedule starts. */
export function workflowNameOf(schedule: WorkflowSchedule): string {
  return String(schedule.startWorkflowRequest.name ?? '');
}

/** Checks a schedule body; the caller checks that the workflow exists. */
export function parseSchedule(body: unknown): WorkflowSchedule {
  if (!isObject(body)) throw new ValidationError('Request body must be a JSON object: WorkflowSchedule');
  const issues = new Issues();
  const name = body.name;
  if (typeof name !== 'string' || name.trim() === '')
    issues.add('name', 'Schedule name cannot be empty', name);
  else if (name.length > 255) issues.add('name', 'must be at most 255 characters');
  const cronSchedules = parseEntries(issues, body.cronSchedules);
  const cronExpression = optional(issues, body, 'cronExpression', 'string');
  const zoneId = optional(issues, body, 'zoneId', 'string');
  if (cronSchedules === undefined || cronSchedules.length === 0) {
    if (cronExpression === undefined || cronExpression.trim() === '') {
      issues.add('cronExpression', 'a cronExpression or a non-empty cronSchedules is required');
    } else checkEntry(issues, 'cronExpression', 'zoneId', cronExpression, zoneId);
  }
  const request = body.startWorkflowRequest;
  if (!isObject(request)) issues.add('startWorkflowRequest', 'is required and must be a JSON object');
  else if (typeof request.name !== 'string' || request.name.trim() === '') {
    issues.add('startWorkflowRequest.name', 'Workflow name cannot be null or empty');
  }
  const start = optional(issues, body, 'scheduleStartTime', 'integer');
  const end = optional(issues, body, 'scheduleEndTime', 'integer');
  if (start !== undefined && end !== undefined && end < start) {
    issues.add('scheduleEndTime', 'must not be before scheduleStartTime', end);
  }
  const catchUp = optional(issues, body, 'runCatchupScheduleInstances', 'boolean');
  const paused = optional(issues, body, 'paused', 'boolean');
  const pausedReason = optional(issues, body, 'pausedReason', 'string');
  const description = optional(issues, body, 'description', 'string');
  const tagProblems = tagFieldProblems(body.tags);
  for (const problem of tagProblems) issues.add(problem.path, problem.message, problem.invalidValue);
  issues.throwIfAny('Invalid WorkflowSchedule');
  return {
    name: (name as string).trim(),
    ...(cronExpression !== undefined ? { cronExpression: cronExpression.trim() } : {}),
    ...(zoneId !== undefined ? { zoneId } : {}),
    ...(cronSchedules !== undefined ? { cronSchedules } : {}),
    startWorkflowRequest: request as Record<string, unknown>,
    runCatchupScheduleInstances: catchUp ?? false,
    paused: paused ?? false,
    ...(paused && pausedReason !== undefined ? { pausedReason } : {}),
    ...(start !== undefined ? { scheduleStartTime: start } : {}),
    ...(end !== undefined ? { scheduleEndTime: end } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(body.tags !== undefined && body.tags !== null ? { tags: tagsOf(body.tags) } : {}),
  };
}

function parseEntries(issues: Issues, value: unknown): CronEntry[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    issues.add('cronSchedules', 'must be an array of {cronExpression, zoneId}');
    return undefined;
  }
  if (value.length > 100) {
    issues.add('cronSchedules', 'must hold at most 100 entries');
    return undefined;
  }
  const entries: CronEntry[] = [];
  value.forEach((entry, i) => {
    const path = `cronSchedules[${i}]`;
    if (!isObject(entry) || typeof entry.cronExpression !== 'string') {
      issues.add(`${path}.cronExpression`, 'is required and must be a string');
      return;
    }
    if (entry.zoneId !== undefined && entry.zoneId !== null && typeof entry.zoneId !== 'string') {
      issues.add(`${path}.zoneId`, 'must be a string');
      return;
    }
    const zoneId = typeof entry.zoneId === 'string' ? entry.zoneId : undefined;
    checkEntry(issues, `${path}.cronExpression`, `${path}.zoneId`, entry.cronExpression, zoneId);
    entries.push({ cronExpression: entry.cronExpression.trim(), ...(zoneId ? { zoneId } : {}) });
  });
  return entries;
}

function checkEntry(
  issues: Issues,
  cronPath: string,
  zonePath: string,
  expression: string,
  zone?: string,
): void {
  const problem = cronProblem(expression);
  if (problem !== undefined) issues.add(cronPath, problem);
  if (zone !== undefined && !isKnownZone(zone)) issues.add(zonePath, `'${zone}' is not a known time zone`);
}

type Kind = 'string' | 'integer' | 'boolean';
type KindOf<K extends Kind> = K extends 'string' ? string : K extends 'integer' ? number : boolean;

function optional<K extends Kind>(
  issues: Issues,
  body: Record<string, unknown>,
  field: string,
  kind: K,
): KindOf<K> | undefined {
  let value = body[field];
  if (value === undefined || value === null) return undefined;
  if (kind === 'integer' && typeof value === 'string') {
    // As Conductor's reader binds a Long: "" is absent (the UI's schedule form sends it for an
    // empty start or end time), a numeric string is its number.
    if (value.trim() === '') return undefined;
    if (/^\s*\d+\s*$/.test(value)) value = Number(value);
  }
  const ok =
    kind === 'integer' ? Number.isSafeInteger(value) && (value as number) >= 0 : typeof value === kind;
  if (!ok) {
    issues.add(
      field,
      kind === 'integer' ? 'must be a non-negative integer (epoch ms)' : `must be a ${kind}`,
      value,
    );
    return undefined;
  }
  return value as KindOf<K>;
}
