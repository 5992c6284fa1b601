/**
 * WorkflowTestRequest (docs/conductor-compat.md §2.16): a StartWorkflowRequest plus
 * `taskRefToMockOutput` ({ref: [TaskMock]}) and `subWorkflowTestRequest` ({ref: WorkflowTestRequest}),
 * parsed into a TestPlan tree. Every problem of the mocks, the nested requests and their inline
 * definitions is listed in one 400, as definition checks do.
 */

import { checkWorkflowDef, normalizeWorkflowDef } from '../../metadata/workflow-def.ts';
import type { WorkflowDef } from '../../model/definitions.ts';
import { ValidationError } from '../../model/errors.ts';
import { Issues, isObject } from '../../validation/issues.ts';
import { ensureIsObject } from '../../validation/shapes.ts';
import type { StartRequest } from '../start.ts';

/** What a mocked worker answers; Conductor's TaskMock statuses are TaskResult's, without CANCELED. */
export const MOCK_STATUSES = ['COMPLETED', 'FAILED', 'FAILED_WITH_TERMINAL_ERROR', 'IN_PROGRESS'] as const;
export type MockStatus = (typeof MOCK_STATUSES)[number];

export interface TaskMock {
  status: MockStatus;
  output: Record<string, unknown>;
  /** Milliseconds from the (simulated) poll to the result. */
  executionTime: number;
  /** Milliseconds from the task being ready to its (simulated) poll. */
  queueWaitTime: number;
}

/** The mocks of one run and the plans of its sub-workflows, by reference name. */
export interface TestPlan {
  mocks: Map<string, TaskMock[]>;
  children: Map<string, TestPlan>;
  /** A sub-workflow's definition replacing the registered one (unused at the root). */
  workflowDef?: WorkflowDef;
}

export interface TestRunRequest {
  start: StartRequest;
  plan: TestPlan;
}

/** Sub-workflow requests nest at most this deep: deeper is a client bug, not a workflow. */
const MAX_DEPTH = 16;

/**
 * Parses the body. `parseStart` is the start request's own parser (WorkflowStarter.parseRequest),
 * so the StartWorkflowRequest fields are read exactly as POST /api/workflow reads them.
 */
export function parseTestRequest(body: unknown, parseStart: (body: unknown) => StartRequest): TestRunRequest {
  const root = ensureIsObject(body, 'WorkflowTestRequest');
  const issues = new Issues();
  // Conductor requires the name; with an inline definition its name is the obvious default.
  const named =
    root.name == null && isObject(root.workflowDef) && typeof root.workflowDef.name === 'string'
      ? { ...root, name: root.workflowDef.name }
      : root;
  let start: StartRequest | undefined;
  try {
    start = parseStart(named);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    if (error.validationErrors.length > 0) issues.list.push(...error.validationErrors);
    else issues.add('body', error.message);
  }
  const plan = parsePlan(root, '', 0, issues);
  issues.throwIfAny('Invalid WorkflowTestRequest');
  return { start: start as StartRequest, plan };
}

function parsePlan(request: Record<string, unknown>, path: string, depth: number, issues: Issues): TestPlan {
  const plan: TestPlan = { mocks: new Map(), children: new Map() };
  const mocks = request.taskRefToMockOutput;
  if (mocks != null) {
    if (!isObject(mocks))
      issues.add(`${path}taskRefToMockOutput`, 'must be a map of task reference to mocks');
    else {
      for (const [ref, list] of Object.entries(mocks)) {
        const at = `${path}taskRefToMockOutput.${ref}`;
        if (!Array.isArray(list)) issues.add(at, 'must be an array of task mocks');
        else
          plan.mocks.set(
            ref,
            list.map((mock, i) => parseMock(mock, `${at}[${i}]`, issues)),
          );
      }
    }
  }
  const subs = request.subWorkflowTestRequest;
  if (subs != null) {
    if (!isObject(subs)) {
      issues.add(`${path}subWorkflowTestRequest`, 'must be a map of task reference to WorkflowTestRequest');
    } else {
      for (const [ref, sub] of Object.entries(subs)) {
        const at = `${path}subWorkflowTestRequest.${ref}`;
        if (!isObject(sub)) issues.add(at, 'must be a WorkflowTestRequest object');
        else if (depth + 1 >= MAX_DEPTH) issues.add(at, `nests deeper than ${MAX_DEPTH} levels`);
        else plan.children.set(ref, parseSubPlan(sub, `${at}.`, depth + 1, issues));
      }
    }
  }
  return plan;
}

function parseSubPlan(
  request: Record<string, unknown>,
  path: string,
  depth: number,
  issues: Issues,
): TestPlan {
  const plan = parsePlan(request, path, depth, issues);
  const def = request.workflowDef;
  if (def == null) return plan;
  if (!isObject(def)) {
    issues.add(`${path}workflowDef`, 'must be a workflow definition object');
    return plan;
  }
  // Checked as an inline definition on start is: task definitions need not be registered.
  if (checkWorkflowDef(issues, def, { taskDefExists: () => true }, `${path}workflowDef.`)) {
    plan.workflowDef = normalizeWorkflowDef(def);
  }
  return plan;
}

function parseMock(raw: unknown, path: string, issues: Issues): TaskMock {
  const mock: TaskMock = { status: 'COMPLETED', output: {}, executionTime: 0, queueWaitTime: 0 };
  if (!isObject(raw)) {
    issues.add(path, 'must be a task mock object {status, output, executionTime, queueWaitTime}');
    return mock;
  }
  if (raw.status != null) {
    if (MOCK_STATUSES.includes(raw.status as MockStatus)) mock.status = raw.status as MockStatus;
    else issues.add(`${path}.status`, `must be one of ${MOCK_STATUSES.join(', ')}`, raw.status);
  }
  if (raw.output != null) {
    if (isObject(raw.output)) mock.output = raw.output;
    else issues.add(`${path}.output`, 'must be a JSON object', raw.output);
  }
  for (const field of ['executionTime', 'queueWaitTime'] as const) {
    const value = raw[field];
    if (value == null) continue;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) mock[field] = value;
    else issues.add(`${path}.${field}`, 'must be a non-negative integer (milliseconds)', value);
  }
  return mock;
}
