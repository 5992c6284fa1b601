/**
 * Workflow and task definitions, in Conductor's wire model (docs/conductor-compat.md §2.2-2.4).
 * Unknown fields sent by clients are kept, so definitions round-trip through editors unchanged.
 */

export type TimeoutPolicy = 'RETRY' | 'TIME_OUT_WF' | 'ALERT_ONLY';
export type WorkflowTimeoutPolicy = 'TIME_OUT_WF' | 'ALERT_ONLY';
export type RetryLogic = 'FIXED' | 'EXPONENTIAL_BACKOFF' | 'LINEAR_BACKOFF';

export interface TaskDef {
  name: string;
  description?: string;
  retryCount: number;
  retryLogic: RetryLogic;
  retryDelaySeconds: number;
  backoffScaleFactor: number;
  maxRetryDelaySeconds?: number;
  backoffJitterMs?: number;
  timeoutSeconds: number;
  totalTimeoutSeconds?: number;
  timeoutPolicy: TimeoutPolicy;
  responseTimeoutSeconds: number;
  pollTimeoutSeconds?: number;
  rateLimitPerFrequency?: number;
  rateLimitFrequencyInSeconds?: number;
  concurrentExecLimit?: number;
  inputKeys?: string[];
  outputKeys?: string[];
  inputTemplate?: Record<string, unknown>;
  isolationGroupId?: string;
  executionNameSpace?: string;
  ownerEmail?: string;
  ownerApp?: string;
  createTime?: number;
  updateTime?: number;
  [extra: string]: unknown;
}

export interface SubWorkflowParams {
  name?: string;
  version?: number;
  taskToDomain?: Record<string, string>;
  workflowDefinition?: WorkflowDef | string;
  priority?: number | string;
  [extra: string]: unknown;
}

export interface WorkflowTask {
  name: string;
  taskReferenceName: string;
  type: string;
  description?: string;
  inputParameters: Record<string, unknown>;
  optional: boolean;
  permissive?: boolean;
  startDelay: number;
  asyncComplete: boolean;
  retryCount?: number;
  taskDefinition?: TaskDef;
  decisionCases?: Record<string, WorkflowTask[]>;
  defaultCase?: WorkflowTask[];
  evaluatorType?: string;
  expression?: string;
  caseValueParam?: string;
  caseExpression?: string;
  forkTasks?: WorkflowTask[][];
  joinOn?: string[];
  loopCondition?: string;
  loopOver?: WorkflowTask[];
  subWorkflowParam?: SubWorkflowParams;
  sink?: string;
  dynamicTaskNameParam?: string;
  dynamicForkTasksParam?: string;
  dynamicForkTasksInputParamName?: string;
  dynamicForkJoinTasksParam?: string;
  defaultExclusiveJoinTask?: string[];
  [extra: string]: unknown;
}

export interface WorkflowDef {
  name: string;
  description?: string;
  version: number;
  tasks: WorkflowTask[];
  inputParameters: string[];
  outputParameters: Record<string, unknown>;
  failureWorkflow?: string;
  failureWorkflowVersion?: number;
  schemaVersion: number;
  restartable: boolean;
  workflowStatusListenerEnabled: boolean;
  ownerEmail?: string;
  ownerApp?: string;
  timeoutPolicy: WorkflowTimeoutPolicy;
  timeoutSeconds: number;
  variables: Record<string, unknown>;
  inputTemplate: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  createTime?: number;
  updateTime?: number;
  [extra: string]: unknown;
}

/** Row of the names-and-versions listings. */
export interface WorkflowDefSummary {
  name: string;
  version: number;
  createTime?: number;
  updateTime?: number;
}
