/**
 * Starting runs: by StartWorkflowRequest (registered name/version or an inline definition), by
 * name with an input body, as a SUB_WORKFLOW child, or as a failure workflow. A new run is stored
 * RUNNING with no tasks and decided at once; the first decide schedules its first task.
 */

import type { SchemaEnforcer } from '../engine/schema-enforcer.ts';
import { debugEnabled, type Logger } from '../log/logger.ts';
import type { MetadataService } from '../metadata/service.ts';
import { validateWorkflowDef } from '../metadata/workflow-def.ts';
import type { Clock } from '../model/clock.ts';
import { forEachTask, mapTasks } from '../model/definition-graph.ts';
import type { TaskDef, WorkflowDef } from '../model/definitions.ts';
import { ConflictError, NotFoundError } from '../model/errors.ts';
import type { WorkflowRecord } from '../model/execution.ts';
import { generationAt, type IdGenerator } from '../model/ids.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { IdempotencyClaims, RunStore, TaskDefStore } from '../store/ports.ts';
import { parseBody } from '../validation/body-schema.ts';
import { type IdempotencyStrategy, type StartOutcome, startOnce } from './idempotency.ts';
import { START_WORKFLOW_REQUEST, type StartRequest, startRequestOf } from './start-request.ts';

export type { StartRequest } from './start-request.ts';

export interface StartOptions {
  /** Runs the new run's first decide (execute decides in the request); default: request one. */
  decide?: (workflowId: string) => Promise<void>;
  /**
   * A key of the service's own (execute's requestId, a schedule's fire) that makes the start
   * idempotent in place of the request's: enforced as a request's key is, but not the run's, so
   * the run does not show it.
   */
  idempotency?: { key: string; strategy: IdempotencyStrategy };
}

export interface StartDeps {
  executions: RunStore & IdempotencyClaims;
  taskDefs: TaskDefStore;
  metadata: MetadataService;
  decisions: DecisionQueue;
  clock: Clock;
  ids: IdGenerator;
  /** Where 'run started' goes (a debug line); nowhere when absent. */
  logger?: Logger;
  /** Refuses a start whose input breaks its enforced schema (lib/schemas); absent: no checks. */
  schemas?: SchemaEnforcer;
}

export class WorkflowStarter {
  constructor(private readonly deps: StartDeps) {}

  /**
   * Checks a StartWorkflowRequest that no route contract checked (execute merges the path into it;
   * test runs, schedules and event handlers carry one) against its schema, and reads it.
   */
  parseRequest(body: unknown): StartRequest {
    return startRequestOf(parseBody(START_WORKFLOW_REQUEST, body));
  }

  async start(request: StartRequest, options: StartOptions = {}): Promise<string> {
    return (await this.startRun(request, options)).workflowId;
  }

  /** Starts a run (or, by idempotency key, finds the one started before) and gets its first decide going. */
  async startRun(request: StartRequest, options: StartOptions = {}): Promise<StartOutcome> {
    const def = await this.definitionFor(request);
    // An input kept in external storage is not here to check; neither is a child's (a refused child
    // would stop its parent's decide, as a missing child definition does): their tasks still are.
    if (this.deps.schemas && !request.externalInputPayloadStoragePath && !request.parentWorkflowId) {
      await this.deps.schemas.checkStart(def, { ...(def.inputTemplate ?? {}), ...(request.input ?? {}) });
    }
    const keyed =
      options.idempotency ??
      (request.idempotencyKey
        ? { key: request.idempotencyKey, strategy: request.idempotencyStrategy ?? 'FAIL' }
        : undefined);
    const outcome = keyed
      ? await startOnce(
          this.deps.executions,
          { workflowName: def.name, key: keyed.key, strategy: keyed.strategy },
          (workflowId) => this.create(def, request, workflowId, true),
          this.deps.clock.now(),
        )
      : await this.startById(def, request);
    if (outcome.created) {
      if (this.deps.logger && debugEnabled(this.deps.logger)) {
        this.deps.logger.debug('run started', {
          workflowId: outcome.workflowId,
          workflowName: def.name,
          workflowVersion: def.version,
        });
      }
      await (options.decide ?? ((id: string) => this.deps.decisions.request(id)))(outcome.workflowId);
    }
    return outcome;
  }

  private async startById(def: WorkflowDef, request: StartRequest): Promise<StartOutcome> {
    const workflowId = request.workflowId ?? this.deps.ids.random();
    // A deterministic child id that already exists: an earlier attempt started it.
    return {
      workflowId,
      created: await this.create(def, request, workflowId, Boolean(request.workflowId)),
    };
  }

  /**
   * Stores the new run; false when a run with that id exists and the id was derived (a child's,
   * an event's, an idempotency key's), not random.
   */
  private async create(
    def: WorkflowDef,
    request: StartRequest,
    workflowId: string,
    derived: boolean,
  ): Promise<boolean> {
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
      ...(request.idempotencyKey
        ? {
            idempotencyKey: request.idempotencyKey,
            idempotencyStrategy: request.idempotencyStrategy ?? 'FAIL',
          }
        : {}),
      externalInputPayloadStoragePath: request.externalInputPayloadStoragePath,
      workflowDefinition: def,
      rev: 0,
      seq: 0,
      tasks: [],
      generation: generationAt(now),
      homedTaskIds: true,
      // Stored due now: if the process dies before the first decide, the wake-up sweep finds it.
      wakeAt: now,
    };
    try {
      await this.deps.executions.createWorkflow(record);
      return true;
    } catch (error) {
      // Any other error must reach the caller: a parent that went on would point at a child never
      // stored. A random id that exists is not a re-run either.
      if (!(error instanceof ConflictError) || !derived) throw error;
      return false;
    }
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
    // A definition replaced moments ago may be read in its previous version (as a start a moment
    // earlier would have); one registered moments ago is never missed (ports.ts ReadOptions).
    const registered = await this.deps.taskDefs.getMany([...names], { fresh: false });
    if (registered.size === 0) return def;
    const tasks = mapTasks(def.tasks, (task) => {
      const found: TaskDef | undefined = registered.get(task.name);
      return !task.taskDefinition && found ? { ...task, taskDefinition: found } : task;
    });
    return { ...def, tasks };
  }
}
