/**
 * Task definition validation and defaults (docs/conductor-compat.md §0.3 and §2.4).
 */
import type { RetryLogic, TaskDef, TimeoutPolicy } from '../model/definitions.ts';
import { tagFieldProblems } from '../model/tags.ts';
import { checkType, Issues, isBlank, isObject } from '../validation/issues.ts';

const RETRY_LOGICS: readonly RetryLogic[] = ['FIXED', 'EXPONENTIAL_BACKOFF', 'LINEAR_BACKOFF'];
const TIMEOUT_POLICIES: readonly TimeoutPolicy[] = ['RETRY', 'TIME_OUT_WF', 'ALERT_ONLY'];

/** Records what is wrong with one task definition; `path` prefixes each field (e.g. `[2].`). */
export function checkTaskDef(issues: Issues, value: unknown, path: string): value is Record<string, unknown> {
  if (!isObject(value)) {
    issues.add(path.replace(/\.$/, '') || 'body', 'must be a task definition object');
    return false;
  }
  const before = issues.list.length;
  if (isBlank(value.name)) issues.add(`${path}name`, 'TaskDef name cannot be null or empty', value.name);
  checkType(issues, value, 'description', 'string', path);
  for (const problem of tagFieldProblems(value.tags))
    issues.add(`${path}${problem.path}`, problem.message, problem.invalidValue);
  checkType(issues, value, 'retryCount', 'integer', path, { min: 0 });
  checkType(issues, value, 'retryDelaySeconds', 'integer', path, { min: 0 });
  checkType(issues, value, 'timeoutSeconds', 'integer', path, { min: 0 });
  checkType(issues, value, 'responseTimeoutSeconds', 'integer', path, { min: 1 });
  checkType(issues, value, 'pollTimeoutSeconds', 'integer', path, { min: 0 });
  checkType(issues, value, 'maxRetryDelaySeconds', 'integer', path, { min: 0 });
  checkType(issues, value, 'backoffJitterMs', 'integer', path, { min: 0 });
  checkType(issues, value, 'totalTimeoutSeconds', 'integer', path, { min: 0 });
  checkType(issues, value, 'backoffScaleFactor', 'integer', path, { min: 1 });
  checkType(issues, value, 'rateLimitPerFrequency', 'integer', path, { min: 0 });
  checkType(issues, value, 'rateLimitFrequencyInSeconds', 'integer', path, { min: 1 });
  checkType(issues, value, 'concurrentExecLimit', 'integer', path, { min: 0 });
  checkType(issues, value, 'inputKeys', 'array', path);
  checkType(issues, value, 'outputKeys', 'array', path);
  checkType(issues, value, 'inputTemplate', 'object', path);
  checkType(issues, value, 'ownerEmail', 'string', path);
  checkType(issues, value, 'isolationGroupId', 'string', path);
  checkType(issues, value, 'executionNameSpace', 'string', path);
  if (value.retryLogic != null && !RETRY_LOGICS.includes(value.retryLogic as RetryLogic)) {
    issues.add(`${path}retryLogic`, `must be one of ${RETRY_LOGICS.join(', ')}`, value.retryLogic);
  }
  if (value.timeoutPolicy != null && !TIMEOUT_POLICIES.includes(value.timeoutPolicy as TimeoutPolicy)) {
    issues.add(`${path}timeoutPolicy`, `must be one of ${TIMEOUT_POLICIES.join(', ')}`, value.timeoutPolicy);
  }
  if (issues.list.length > before) return false;

  const timeout = (value.timeoutSeconds as number | undefined) ?? 0;
  const response = (value.responseTimeoutSeconds as number | undefined) ?? 3600;
  const total = (value.totalTimeoutSeconds as number | undefined) ?? 0;
  if (timeout > 0 && response > timeout) {
    issues.add(
      `${path}responseTimeoutSeconds`,
      `TaskDef: ${String(value.name)} responseTimeoutSeconds: ${response} must be less than timeoutSeconds: ${timeout}`,
      response,
    );
  }
  if (timeout > 0 && total > 0 && timeout > total) {
    issues.add(
      `${path}timeoutSeconds`,
      `TaskDef: ${String(value.name)} timeoutSeconds: ${timeout} must be less than or equal to totalTimeoutSeconds: ${total}`,
      timeout,
    );
  }
  return issues.list.length === before;
}

/**
 * Fills Conductor's defaults; server-owned audit fields are set by the caller, and tags are kept
 * apart from the definition (the metadata service stores them).
 */
export function normalizeTaskDef(value: Record<string, unknown>): TaskDef {
  const { createTime: _c, updateTime: _u, createdBy: _cb, updatedBy: _ub, tags: _tags, ...rest } = value;
  return {
    ...rest,
    name: String(value.name).trim(),
    retryCount: (value.retryCount as number | undefined) ?? 3,
    retryLogic: (value.retryLogic as RetryLogic | undefined) ?? 'FIXED',
    retryDelaySeconds: (value.retryDelaySeconds as number | undefined) ?? 60,
    backoffScaleFactor: (value.backoffScaleFactor as number | undefined) ?? 1,
    timeoutSeconds: (value.timeoutSeconds as number | undefined) ?? 0,
    timeoutPolicy: (value.timeoutPolicy as TimeoutPolicy | undefined) ?? 'TIME_OUT_WF',
    responseTimeoutSeconds: (value.responseTimeoutSeconds as number | undefined) ?? 3600,
    inputKeys: (value.inputKeys as string[] | undefined) ?? [],
    outputKeys: (value.outputKeys as string[] | undefined) ?? [],
    inputTemplate: (value.inputTemplate as Record<string, unknown> | undefined) ?? {},
    rateLimitPerFrequency: (value.rateLimitPerFrequency as number | undefined) ?? 0,
    rateLimitFrequencyInSeconds: (value.rateLimitFrequencyInSeconds as number | undefined) ?? 1,
  };
}

/** Validates a list of task definitions (POST /api/metadata/taskdefs), all or nothing. */
export function validateTaskDefs(body: unknown): TaskDef[] {
  const issues = new Issues();
  if (!Array.isArray(body)) {
    issues.add('body', 'must be a non-empty array of task definitions');
    issues.throwIfAny('The task definitions are not valid');
    return [];
  }
  if (body.length === 0) issues.add('body', 'must contain at least one task definition');
  const valid: Record<string, unknown>[] = [];
  body.forEach((item, i) => {
    if (checkTaskDef(issues, item, `[${i}].`)) valid.push(item as Record<string, unknown>);
  });
  issues.throwIfAny('The task definitions are not valid');
  return valid.map(normalizeTaskDef);
}

export function validateTaskDef(body: unknown): TaskDef {
  const issues = new Issues();
  if (!checkTaskDef(issues, body, '')) issues.throwIfAny('The task definition is not valid');
  return normalizeTaskDef(body as Record<string, unknown>);
}
