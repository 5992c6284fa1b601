/**
 * Starting runs: by StartWorkflowRequest (registered name/version or an inline definition), by
 * name with an input body, as a SUB_WORKFLOW child, or as a failure workflow. A new run is stored
 * RUNNING with no tasks and decided at once; the first decide schedules its first task.
 */

import { Issues } from '../metadata/issues.ts';
import type { MetadataService } from '../metadata/service.ts';
import { validateWorkflowDef } from '../metadata/workflow-def.ts';
import type { Clock } from '../model/clock.ts';
import { forEachTask, mapTasks } from '../model/definition-graph.ts';
import type { TaskDef, WorkflowDef } from '../model/definitions.ts';
import { ConflictError, NotFoundError } from '../model/errors.ts';
import type { WorkflowRecord } from '../model/execution.ts';
import type { IdGenerator } from '../model/ids.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { ExecutionStore, TaskDefStore } from '../store/ports.ts';
import { ensureIsObject } from '../validation/shapes.ts';

export interface StartRequest {
  name: string;
  version?: number;
  input?: Record<string, unknown>;
  correlationId?: string;
  priority?: number;
  taskToDomain?: Record<string, string>;
  workflowDef?: unknown;
  externalInputPayloadStoragePath?: string;
  /** Internal: set for children and failure workflows. */
  workflowId?: string;
  parentWorkflowId?: string;
  parentWorkflowTaskId?: string;
  event?: string;
}

export interface StartDeps {
  executions: ExecutionStore;
  taskDefs: TaskDefStore;
  metadata: MetadataService;
  decisions: DecisionQueue;
  clock: Clock;
  ids: IdGenerator;
}

export class WorkflowStarter {
  constructor(private readonly deps: StartDeps) {}

  /** Validates a StartWorkflowRequest body (POST /api/workflow). */
  parseRequest(body: unknown): StartRequest {
    const req = ensureIsObject(body, 'StartWorkflowRequest');
    const issues = new Issues();
    if (typeof req.name !== 'string' || req.name.trim() === '') {
      issues.add('name', 'Workflow name cannot be null or empty');
    }
    if (req.version != null && !(Number.isInteger(req.version) && (req.version as number) >= 0)) {
      issues.add('version', 'must be a non-negative integer', req.version);
    }
    if (req.input === null && typeof req.externalInputPayloadStoragePath !== 'string') {
      // Conductor: a null input with no external payload path is a bad request (an absent one is {}).
      issues.add('input', 'must not be null without externalInputPayloadStoragePath');
    } else if (req.input != null && (typeof req.input !== 'object' || Array.isArray(req.input))) {
      issues.add('input', 'must be a JSON object');
    }
    if (req.correlationId != null && typeof req.correlationId !== 'string') {
      issues.add('correlationId', 'must be a string', req.correlationId);
    }
    if (
      req.priority != null &&
      !(Number.isInteger(req.priority) && (req.priority as number) >= 0 && (req.priority as number) <= 99)
    ) {
      issues.add('priority', 'priority: must be between 0 and 99', req.priority);
    }
    if (
      req.taskToDomain != null &&
      (typeof req.taskToDomain !== 'object' || Array.isArray(req.taskToDomain))
    ) {
      issues.add('taskToDomain', 'must be a map of task name to domain');
    }
    issues.throwIfAny('Invalid StartWorkflowRequest');
    return {
      name: (req.name as string).trim(),
      version: req.version == null || req.version === 0 ? undefined : (req.version as number),
      input: (req.input as Record<string, unknown> | undefined) ?? {},
      correlationId: req.correlationId as string | undefined,
      priority: (req.priority as number | undefined) ?? 0,
      taskToDomain: (req.taskToDomain as Record<string, string> | undefined) ?? {},
      workflowDef: req.workflowDef ?? undefined,
      externalInputPayloadStoragePath: req.externalInputPayloadStoragePath as string | undefined,
    };
  }

  async start(request: StartRequest): Promise<string> {
    const def = await this.definitionFor(request);
    const workflowId = request.workflowId ?? this.deps.ids.random();
    const now = this.deps.clock.now();
    const input = { ...(def.inputTemplate ?? {}), ...(request.input ?? {}) };
    const record: WorkflowRecord = {
      workflowId,
      workflowName: def.name,
      workflowVersion: def.version,
      status: 'RUNNING',
      createTime: now,
      updateTime: now,
      endTime: 0,
      input,
      output: {},
      variables: JSON.parse(JSON.stringify(def.variables ?? {})) as Record<string, unknown>,
      correlationId: request.correlationId,
      priority: request.priority ?? 0,
      taskToDomain: request.taskToDomain ?? {},
      parentWorkflowId: request.parentWorkflowId,
      parentWorkflowTaskId: request.parentWorkflowTaskId,
      failedReferenceTaskNames: [],
      failedTaskNames: [],
      lastRetriedTime: 0,
      event: request.event,
      externalInputPayloadStoragePath: request.externalInputPayloadStoragePath,
      workflowDefinition: def,
      rev: 0,
      seq: 0,
      tasks: [],
      // Stored due now: if the process dies before the first decide, the wake-up sweep finds it.
      wakeAt: now,
    };
    try {
      await this.deps.executions.createWorkflow(record);
    } catch (error) {
      // A deterministic child id that already exists: an earlier attempt started it. Any other
      // error must reach the caller: a parent that went on would point at a child never stored.
      if (!request.workflowId || !(error instanceof ConflictError)) throw error;
      return workflowId;
    }
    await this.deps.decisions.request(workflowId);
    return workflowId;
  }

  /** The latest registered definition of a workflow as a new run would get it (restart's useLatestDefinitions). */
  latestDefinition(name: string): Promise<WorkflowDef> {
    return this.definitionFor({ name });
  }

  /** The definition a run executes: inline, or registered (latest when no version), with task definitions embedded. */
  private async definitionFor(request: StartRequest): Promise<WorkflowDef> {
    let def: WorkflowDef;
    if (request.workflowDef !== undefined && request.workflowDef !== null) {
      def = validateWorkflowDef(request.workflowDef, { taskDefExists: () => true });
    } else {
      const found = await this.deps.metadata.findWorkflowDef(request.name, request.version);
      if (!found) {
        throw new NotFoundError(
          `No such workflow defined. name=${request.name}, version=${request.version ?? 'latest'}`,
        );
      }
      def = found;
    }
    return this.embedTaskDefs(def);
  }

  /**
   * Conductor fills in each task's definition at start, so later edits of a task definition do not
   * change a running workflow and a decide needs no definition reads.
   */
  private async embedTaskDefs(def: WorkflowDef): Promise<WorkflowDef> {
    const names = new Set<string>();
    forEachTask(def.tasks, (task) => {
      if (!task.taskDefinition) names.add(task.name);
    });
    if (names.size === 0) return def;
    const registered = await this.deps.taskDefs.getMany([...names]);
    if (registered.size === 0) return def;
    const tasks = mapTasks(def.tasks, (task) => {
      const found: TaskDef | undefined = registered.get(task.name);
      return !task.taskDefinition && found ? { ...task, taskDefinition: found } : task;
    });
    return { ...def, tasks };
  }
}
