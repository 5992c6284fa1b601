/**
 * The rules of the scheduler API (docs/api.md "Scheduler API"): create-or-update by name, reads,
 * search, pause and resume (one by one and in bulk), delete, the run-time preview, the admin
 * switch, and Orkes' schedule tags. Every change is a read and a write conditional on the
 * schedule's version, retried on a conflict, so concurrent requests and the tick never lose each
 * other's update. A saved or resumed schedule is dispatched at once: its first fires do not wait
 * for the next tick. A save without `tags` keeps the schedule's.
 */
import type { Logger } from '../log/logger.ts';
import type { BulkResponse } from '../metadata/service.ts';
import type { Clock } from '../model/clock.ts';
import { errorMessage, NotFoundError, quote, ValidationError } from '../model/errors.ts';
import { retryOnConflict } from '../model/retry-on-conflict.ts';
import { checkTagCount, type Tag, type TagView, tagViews } from '../model/tags.ts';
import { isKnownZone } from '../model/zone-clock.ts';
import { storedStartRequest } from '../workflows/start-request.ts';
import { cronProblem, fireTimesBetween } from './cron.ts';
import type { ScheduleDispatcher } from './dispatcher.ts';
import { parseSchedule, type ScheduleRecord, type WorkflowSchedule, workflowNameOf } from './model.ts';
import { DISPATCH_HORIZON_MS, nextRunTimeOf } from './plan.ts';
import type { SchedulerState, ScheduleStore } from './ports.ts';

/** nextFewSchedules answers at most this many times (docs/api.md "Limits"). */
export const NEXT_FEW_LIMIT = 5;

export interface SchedulerServiceDeps {
  schedules: ScheduleStore;
  dispatcher: ScheduleDispatcher;
  clock: Clock;
  logger: Logger;
  /** Checks a StartWorkflowRequest as a start would (WorkflowStarter.parseRequest). */
  checkStartRequest(body: unknown): void;
  /** Whether a workflow of this name (and version) is registered. */
  workflowExists(name: string, version?: number): Promise<boolean>;
  /** The zone of nextFewSchedules (service.scheduler.schedulerTimeZone). */
  previewZone: string;
}

/**
 * A stored schedule as the API shows it at `now`: without its bookkeeping, with its next run time
 * and its tags (when it has some) as tag views.
 */
export function toApi(record: ScheduleRecord, now: number): WorkflowSchedule {
  const { rev: _, nextDispatchTime: __, tags, ...rest } = record;
  const schedule: WorkflowSchedule = tags && tags.length > 0 ? { ...rest, tags: tagViews(tags) } : rest;
  const next = nextRunTimeOf(schedule, now);
  return next === undefined ? schedule : { ...schedule, nextRunTime: next };
}

export class SchedulerService {
  constructor(private readonly deps: SchedulerServiceDeps) {}

  async save(body: unknown): Promise<WorkflowSchedule> {
    const schedule = parseSchedule(body);
    // Kept as Conductor binds it: fields the UI sends empty ("version": "") are absent.
    const parsed = { ...schedule, startWorkflowRequest: storedStartRequest(schedule.startWorkflowRequest) };
    await this.checkWorkflow(parsed);
    const { schedules, clock } = this.deps;
    const saved = await retryOnConflict(async () => {
      const existing = await schedules.get(parsed.name);
      const now = clock.now();
      const next = nextRunTimeOf(parsed, now);
      const { nextRunTime: _, tags: given, ...fields } = parsed;
      const tags = given ?? existing?.tags;
      const record: ScheduleRecord = {
        ...fields,
        ...(tags && tags.length > 0 ? { tags } : {}),
        createTime: existing?.createTime ?? now,
        createdBy: existing?.createdBy ?? 'anonymous',
        updatedTime: now,
        updatedBy: 'anonymous',
        ...(next !== undefined ? { nextDispatchTime: next } : {}),
        rev: (existing?.rev ?? 0) + 1,
      };
      await schedules.save(record, existing?.rev);
      return record;
    });
    if (!saved.paused) await this.dispatchNow(saved.name);
    return toApi((await schedules.get(saved.name)) ?? saved, clock.now());
  }

  async get(name: string): Promise<WorkflowSchedule> {
    return toApi(await this.existing(name), this.deps.clock.now());
  }

  async list(workflowName?: string): Promise<WorkflowSchedule[]> {
    const all = await this.deps.schedules.list();
    const now = this.deps.clock.now();
    return all
      .filter((s) => workflowName === undefined || workflowNameOf(s) === workflowName)
      .map((s) => toApi(s, now));
  }

  async pause(name: string, reason?: string): Promise<void> {
    await this.change(name, (s) => ({ ...s, paused: true, ...(reason ? { pausedReason: reason } : {}) }));
  }

  async resume(name: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.change(name, (s) => {
      const { pausedReason: _, nextDispatchTime, ...rest } = s;
      // With catch-up the fire times missed while paused are replayed (bounded, plan.ts), from one
      // dispatch window back: fires sent before the pause were dropped while it lasted, and those
      // that did run are duplicates that start nothing. Else the schedule goes on from now.
      const next =
        s.runCatchupScheduleInstances && nextDispatchTime !== undefined
          ? nextDispatchTime - DISPATCH_HORIZON_MS
          : nextRunTimeOf(s, now);
      return { ...rest, paused: false, ...(next !== undefined ? { nextDispatchTime: next } : {}) };
    });
    await this.dispatchNow(name);
  }

  async bulk(names: string[], paused: boolean): Promise<BulkResponse<string>> {
    const result: BulkResponse<string> = { bulkErrorResults: {}, bulkSuccessfulResults: [] };
    for (const name of names) {
      try {
        await (paused ? this.pause(name) : this.resume(name));
        result.bulkSuccessfulResults.push(name);
      } catch (error) {
        result.bulkErrorResults[name] = errorMessage(error);
      }
    }
    return result;
  }

  /** The schedule's tags (Orkes); 404 for an unknown schedule. */
  async tags(name: string): Promise<TagView[]> {
    return tagViews((await this.existing(name)).tags);
  }

  /** Stores what `change` makes of the schedule's tags, conditionally on its version; 404 unknown. */
  async changeTags(name: string, change: (tags: Tag[]) => Tag[]): Promise<void> {
    await this.change(name, (s) => {
      const { tags: current, ...rest } = s;
      const next = checkTagCount(change(current ?? [])) as Tag[];
      return next.length > 0 ? { ...rest, tags: next } : rest;
    });
  }

  /** Removes a schedule; a missing one is fine (as in Conductor). Its execution records stay. */
  async delete(name: string): Promise<void> {
    await this.deps.schedules.delete(name);
  }

  /** The next run times of an expression in the server's zone, at most NEXT_FEW_LIMIT of them. */
  nextFew(cronExpression: string, options: { start?: number; end?: number; limit?: number }): number[] {
    const problem = cronProblem(cronExpression);
    if (problem !== undefined) {
      throw new ValidationError(`Invalid cron expression: ${problem}`, [
        { path: 'cronExpression', message: problem },
      ]);
    }
    const zone = this.deps.previewZone;
    if (!isKnownZone(zone))
      throw new ValidationError(`service.scheduler.schedulerTimeZone '${zone}' is not a known time zone`);
    const limit = Math.min(options.limit ?? NEXT_FEW_LIMIT, NEXT_FEW_LIMIT);
    const from = options.start ?? this.deps.clock.now();
    const to = options.end === undefined ? Number.POSITIVE_INFINITY : options.end + 1;
    return fireTimesBetween(cronExpression.trim(), zone, from, to, limit);
  }

  async state(): Promise<SchedulerState> {
    return this.deps.schedules.state();
  }

  async setPaused(paused: boolean): Promise<SchedulerState> {
    await this.deps.schedules.setState({ paused });
    // Fires that came while paused were dropped: the last window is sent again (catch-up schedules
    // replay what they missed; fires that did run are duplicates and start nothing).
    if (!paused) await this.deps.dispatcher.tick(this.deps.clock.now(), { resend: true });
    return { paused };
  }

  /** Sends every active schedule's current window again (duplicates start nothing). */
  async requeue(): Promise<{ schedules: number; fires: number }> {
    const result = await this.deps.dispatcher.tick(this.deps.clock.now(), { resend: true });
    return { schedules: result.schedules, fires: result.fires };
  }

  private async existing(name: string): Promise<ScheduleRecord> {
    const found = await this.deps.schedules.get(name);
    if (!found) throw new NotFoundError(`Schedule '${quote(name)}' not found`);
    return found;
  }

  private async change(name: string, apply: (s: ScheduleRecord) => ScheduleRecord): Promise<void> {
    await retryOnConflict(async () => {
      const current = await this.existing(name);
      const changed = apply(current);
      await this.deps.schedules.save(
        { ...changed, updatedTime: this.deps.clock.now(), rev: current.rev + 1 },
        current.rev,
      );
    });
  }

  /** The saved schedule is durable; a failed send is the next tick's to make up. */
  private async dispatchNow(name: string): Promise<void> {
    try {
      await this.deps.dispatcher.dispatch(name, this.deps.clock.now());
    } catch (error) {
      this.deps.logger.warn('schedule saved; its first fires wait for the next tick', {
        schedule: name,
        error: errorMessage(error),
      });
    }
  }

  private async checkWorkflow(schedule: WorkflowSchedule): Promise<void> {
    const request = schedule.startWorkflowRequest;
    try {
      this.deps.checkStartRequest(request);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      // The start's own wording, with paths inside the schedule.
      const issues = error.validationErrors.map((e) => ({ ...e, path: `startWorkflowRequest.${e.path}` }));
      throw new ValidationError(`Invalid WorkflowSchedule: ${error.message}`, issues);
    }
    if (request.workflowDef !== undefined && request.workflowDef !== null) return;
    const version = typeof request.version === 'number' && request.version > 0 ? request.version : undefined;
    const name = workflowNameOf(schedule);
    if (!(await this.deps.workflowExists(name, version))) {
      const message = `Workflow ${quote(name)}${version ? ` version ${version}` : ''} is not registered`;
      throw new ValidationError(`Invalid WorkflowSchedule: startWorkflowRequest.name: ${message}`, [
        { path: 'startWorkflowRequest.name', message, invalidValue: name },
      ]);
    }
  }
}
