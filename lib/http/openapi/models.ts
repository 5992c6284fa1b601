/**
 * The main models of the API as OpenAPI 3.1 component schemas (JSON Schema 2020-12): the error body
 * every failure carries and the records routes answer with (docs/conductor-compat.md §2). They
 * describe the wire shapes, documenting the main fields; every model allows fields it does not
 * name, as Conductor's clients send and expect more than these.
 */
import { ROLES } from '../../security/roles.ts';
import type { JsonSchema } from '../contract.ts';

const str = (description: string): JsonSchema => ({ type: 'string', description });
const int = (description: string): JsonSchema => ({ type: 'integer', description });
const map = (description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: true,
  description,
});
// Names are plain strings here (MODELS' own keys type them below); the test resolves every $ref.
const ref = (model: string): JsonSchema => ({ $ref: `#/components/schemas/${model}` });
const listOf = (model: string): JsonSchema => ({ type: 'array', items: ref(model) });
const oneOfValues = (values: string[], description: string): JsonSchema => ({
  type: 'string',
  enum: values,
  description,
});

const TASK_STATUSES = [
  'IN_PROGRESS',
  'CANCELED',
  'FAILED',
  'FAILED_WITH_TERMINAL_ERROR',
  'COMPLETED',
  'COMPLETED_WITH_ERRORS',
  'SCHEDULED',
  'TIMED_OUT',
  'SKIPPED',
];
const WORKFLOW_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'TIMED_OUT', 'TERMINATED', 'PAUSED'];

export const MODELS = {
  ErrorBody: {
    type: 'object',
    description: 'The body of every error answer',
    required: ['status', 'message', 'instance', 'retryable'],
    properties: {
      status: int('The HTTP status'),
      message: str('What went wrong, in words'),
      instance: str('The server that answered'),
      retryable: { type: 'boolean', description: 'Whether the same request may succeed later' },
      validationErrors: {
        type: 'array',
        description: 'Each problem of a request that failed validation',
        items: {
          type: 'object',
          required: ['path', 'message'],
          properties: { path: str('Where'), message: str('What'), invalidValue: {} },
        },
      },
      error: oneOfValues(['EXPIRED_TOKEN', 'INVALID_TOKEN'], 'On a 401 for a token: get a new one'),
    },
  },
  TokenResponse: {
    type: 'object',
    required: ['token'],
    properties: { token: str('Send it in X-Authorization; valid for service.security.token-ttl') },
  },
  Health: {
    type: 'object',
    required: ['healthy'],
    properties: {
      healthy: { type: 'boolean' },
      healthResults: { type: 'array', items: {} },
      suppressedHealthResults: { type: 'array', items: {} },
    },
  },
  Tag: {
    type: 'object',
    description: 'A tag of a definition, schedule, event handler or application (Orkes TagObject)',
    required: ['key', 'value'],
    properties: {
      key: str('Key (one value per key)'),
      value: str('Value'),
      type: oneOfValues(['METADATA'], 'Always METADATA'),
    },
  },
  WorkflowTask: {
    type: 'object',
    description: 'A task of a workflow definition',
    required: ['taskReferenceName'],
    properties: {
      name: str('Task definition name (the task type of a worker task)'),
      taskReferenceName: str('Unique within the workflow'),
      type: str('SIMPLE, HTTP, INLINE, SWITCH, FORK_JOIN, DO_WHILE, WAIT, SUB_WORKFLOW, ...'),
      inputParameters: map('Input, with references to the run and other tasks'),
      optional: { type: 'boolean' },
    },
  },
  WorkflowDef: {
    type: 'object',
    description: 'A workflow definition',
    required: ['name'],
    properties: {
      name: str('Name'),
      version: int('Version (default 1)'),
      description: str('Description'),
      tasks: listOf('WorkflowTask'),
      inputParameters: { type: 'array', items: { type: 'string' } },
      outputParameters: map('Output, with references to the run and its tasks'),
      schemaVersion: int('Always 2'),
      timeoutSeconds: int('Run timeout (0: none)'),
      timeoutPolicy: oneOfValues(['TIME_OUT_WF', 'ALERT_ONLY'], 'What a timeout does'),
      restartable: { type: 'boolean' },
      ownerEmail: str('Owner'),
      tags: { ...listOf('Tag'), description: "The name's tags (every version shares them)" },
    },
  },
  TaskDef: {
    type: 'object',
    description: 'A task definition',
    required: ['name'],
    properties: {
      name: str('Name (the task type workers poll)'),
      description: str('Description'),
      retryCount: int('Retries after a failure'),
      retryLogic: oneOfValues(['FIXED', 'EXPONENTIAL_BACKOFF', 'LINEAR_BACKOFF'], 'Delay between retries'),
      retryDelaySeconds: int('Base delay between retries'),
      timeoutSeconds: int('Time for the whole task'),
      responseTimeoutSeconds: int('Time between updates of a running task'),
      pollTimeoutSeconds: int('Time to be polled'),
      timeoutPolicy: oneOfValues(['RETRY', 'TIME_OUT_WF', 'ALERT_ONLY'], 'What a timeout does'),
      concurrentExecLimit: int('Tasks of this type in progress at once'),
      ownerEmail: str('Owner'),
      tags: listOf('Tag'),
    },
  },
  Task: {
    type: 'object',
    description: 'A task of a run, as workers and readers see it',
    properties: {
      taskId: str('Id'),
      taskType: str('Type'),
      referenceTaskName: str('Reference name in the definition'),
      status: oneOfValues(TASK_STATUSES, 'Status'),
      workflowInstanceId: str('The run'),
      workflowType: str('The run s workflow name'),
      inputData: map('Input'),
      outputData: map('Output'),
      retryCount: int('Retries so far'),
      pollCount: int('Polls so far'),
      workerId: str('The worker that polled it'),
      reasonForIncompletion: str('Why it failed'),
      scheduledTime: int('Epoch ms'),
      startTime: int('Epoch ms'),
      endTime: int('Epoch ms'),
      callbackAfterSeconds: int('Delay before it is polled again'),
    },
  },
  TaskResult: {
    type: 'object',
    description: 'A worker s update of a task',
    required: ['workflowInstanceId', 'taskId', 'status'],
    properties: {
      workflowInstanceId: str('The run'),
      taskId: str('The task'),
      status: oneOfValues(['IN_PROGRESS', 'FAILED', 'FAILED_WITH_TERMINAL_ERROR', 'COMPLETED'], 'New status'),
      outputData: map('Output'),
      reasonForIncompletion: str('Why it failed'),
      callbackAfterSeconds: int('Poll it again after this delay (IN_PROGRESS)'),
      workerId: str('The worker'),
      logs: { type: 'array', items: {} },
    },
  },
  StartWorkflowRequest: {
    type: 'object',
    required: ['name'],
    properties: {
      name: str('Workflow name'),
      version: int('Version (default: latest)'),
      input: map('Input'),
      correlationId: str('Correlation id'),
      priority: int('0..99'),
      taskToDomain: map('Task type to domain'),
      idempotencyKey: str('Starts with the same key give the same run'),
      idempotencyStrategy: oneOfValues(['FAIL', 'RETURN_EXISTING', 'FAIL_ON_RUNNING'], 'On a repeated key'),
      workflowDef: ref('WorkflowDef'),
    },
  },
  Workflow: {
    type: 'object',
    description: 'A run',
    properties: {
      workflowId: str('Id'),
      workflowName: str('Workflow name'),
      workflowVersion: int('Workflow version'),
      status: oneOfValues(WORKFLOW_STATUSES, 'Status'),
      input: map('Input'),
      output: map('Output'),
      variables: map('Variables (SET_VARIABLE)'),
      correlationId: str('Correlation id'),
      reasonForIncompletion: str('Why it failed'),
      tasks: listOf('Task'),
      workflowDefinition: ref('WorkflowDef'),
      parentWorkflowId: str('The parent run of a sub-workflow'),
      idempotencyKey: str('The idempotency key it was started with'),
      idempotencyStrategy: oneOfValues(
        ['FAIL', 'RETURN_EXISTING', 'FAIL_ON_RUNNING'],
        'The strategy of that key',
      ),
      createTime: int('Epoch ms'),
      startTime: int('Epoch ms'),
      endTime: int('Epoch ms'),
      updateTime: int('Epoch ms'),
    },
  },
  SearchResult: {
    type: 'object',
    description: 'One page of search hits',
    required: ['totalHits', 'results'],
    properties: { totalHits: int('Hits in all pages'), results: { type: 'array', items: map('A hit') } },
  },
  Application: {
    type: 'object',
    description: 'An application: what its access keys may do is what its roles grant',
    required: ['id', 'name', 'roles', 'createTime', 'createdBy', 'updateTime', 'updatedBy'],
    properties: {
      id: str('Generated id'),
      name: str('Name'),
      roles: {
        type: 'array',
        items: oneOfValues([...ROLES], 'A role'),
      },
      tags: listOf('Tag'),
      createTime: int('Epoch ms'),
      createdBy: str('The key that created it (anonymous with security off)'),
      updateTime: int('Epoch ms'),
      updatedBy: str('The key that changed it last'),
    },
  },
  AccessKey: {
    type: 'object',
    description: 'A new access key: the only answer that holds its secret',
    required: ['id', 'secret'],
    properties: { id: str('keyId of the SDKs'), secret: str('keySecret of the SDKs: shown once') },
  },
  AccessKeyInfo: {
    type: 'object',
    required: ['id', 'createdAt', 'status'],
    properties: {
      id: str('Key id'),
      createdAt: int('Epoch ms'),
      status: oneOfValues(['ACTIVE', 'INACTIVE'], 'An INACTIVE key gets no token; its tokens stop'),
    },
  },
} satisfies Record<string, JsonSchema>;

export type ModelName = keyof typeof MODELS;

/** What a route answers on success: one model, or a list of it (`Task[]`). */
export type ResponseModel = ModelName | `${ModelName}[]`;

/** The schema of a response model, by reference to its component. */
export function responseSchema(model: ResponseModel): JsonSchema {
  return model.endsWith('[]') ? listOf(model.slice(0, -2)) : ref(model);
}
