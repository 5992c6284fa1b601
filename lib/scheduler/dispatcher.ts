/**
 * The scheduler's engine room, the same on both hosts: `dispatch` sends one work-queue message per
 * fire time (delayed to its second) and moves the schedule's nextDispatchTime past them; `tick` does so
 * for every schedule the next-run index says is due before the next tick; `fire` handles one
 * message: it starts the workflow and leaves the execution record (POLLED, then EXECUTED or FAILED).
 *
 * Exactly once per scheduled time: the execution id is derived from (schedule, cron, scheduled
 * time) and claimed conditionally, and the workflow is started with that id as its idempotency key
 * (RETURN_EXISTING). A duplicated message, a second ticker or a re-sent window starts nothing twice;
 * a fire that died between its claim and its record's update starts the same run when retried.
 */
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../model/clock.ts';
import { DomainError, errorMessage } from '../model/errors.ts';
import { derivedId } from '../model/ids.ts';
import { retryOnConflict } from '../model/retry-on-conflict.ts';
import type { WorkQueue } from '../queue/ports.ts';
import type { StartOutcome } from '../workflows/idempotency.ts';
import type { StartOptions, StartRequest } from '../workflows/start.ts';
import type { ScheduleFireMessage } from './fire-message.ts';
import {
  cronEntriesOf,
  REASON_LIMIT,
  type ScheduleExecution,
  type ScheduleRecord,
  STACK_TRACE_LIMIT,
  workflowNameOf,
} from './model.ts';
import { DISPATCH_HORIZON_MS, planFires } from './plan.ts';
import type { ScheduleStore } from './ports.ts';

/** Schedules one tick takes; more are left due for the next tick (and logged). */
export const TICK_LIMIT = 20_000;
/** Schedules dispatched at once by a tick (store and queue latency, not CPU, bound a tick). */
const TICK_CONCURRENCY = 25;
/** Schedules dispatched between two pauses for the event loop (about 2 ms of work). */
const YIELD_EVERY = 20;

export interface WorkflowStarterPort {
  parseRequest(body: unknown): StartRequest;
  startRun(request: StartRequest, options?: Pick<StartOptions, 'idempotency'>): Promise<StartOutcome>;
}

export interface DispatcherDeps {
  schedules: ScheduleStore;
  queue: WorkQueue<ScheduleFireMessage>;
  starter: WorkflowStarterPort;
  clock: Clock;
  logger: Logger;
}

export interface TickResult {
  paused: boolean;
  schedules: number;
  fires: number;
  skipped: number;
}

export type FireOutcome = 'executed' | 'failed' | 'duplicate' | 'dropped';

/** The execution id of one fire: the same for every message and ticker naming that fire. */
export const executionIdOf = (scheduleName: string, cronExpression: string, scheduledTime: number): string =>
  derivedId('schedule-execution', scheduleName, cronExpression, scheduledTime);

export class ScheduleDispatcher {
  constructor(private readonly deps: DispatcherDeps) {}

  /**
   * Dispatches every due schedule. `resend` (the local host's first tick after a start, and the
   * admin requeue): the fires the previous process held in memory are lost, so every active
   * schedule sends its window again from one horizon back; the duplicates start nothing.
   */
  async tick(now: number, { resend = false }: { resend?: boolean } = {}): Promise<TickResult> {
    if ((await this.deps.schedules.state()).paused)
      return { paused: true, schedules: 0, fires: 0, skipped: 0 };
    const due = await this.deps.schedules.due(
      resend ? Number.MAX_SAFE_INTEGER : now + DISPATCH_HORIZON_MS,
      TICK_LIMIT,
    );
    if (due.length >= TICK_LIMIT)
      this.deps.logger.warn('more schedules are due than one tick takes', { limit: TICK_LIMIT });
    const result: TickResult = { paused: false, schedules: due.length, fires: 0, skipped: 0 };
    let failed = 0;
    let firstError: unknown;
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < due.length) {
        // A memory store answers in microtasks: without a pause the whole tick would be one turn
        // of the event loop, and the fires already waiting on timers would start late.
        if (next % YIELD_EVERY === 0) await new Promise((resume) => setImmediate(resume));
        const schedule = due[next++] as ScheduleRecord;
        try {
          const { fires, skipped } = await this.dispatchRecord(schedule, now, resend);
          result.fires += fires;
          result.skipped += skipped;
        } catch (error) {
          failed++;
          firstError ??= error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(TICK_CONCURRENCY, due.length) }, lane));
    if (failed > 0) {
      throw new Error(
        `${failed} of ${due.length} schedules failed to dispatch: ${errorMessage(firstError)}`,
        {
          cause: firstError,
        },
      );
    }
    return result;
  }

  /** Dispatches one schedule now (after a save or a resume); nothing when paused or unknown. */
  async dispatch(name: string, now: number): Promise<{ fires: number; skipped: number }> {
    const schedule = await this.deps.schedules.get(name);
    if (!schedule || (await this.deps.schedules.state()).paused) return { fires: 0, skipped: 0 };
    return this.dispatchRecord(schedule, now, false);
  }

  private dispatchRecord(first: ScheduleRecord, now: number, resend: boolean) {
    let schedule: ScheduleRecord | undefined = first;
    return retryOnConflict(async (attempt) => {
      if (attempt > 1) schedule = await this.deps.schedules.get(first.name);
      if (!schedule || schedule.paused || schedule.nextDispatchTime === undefined)
        return { fires: 0, skipped: 0 };
      if (!resend && schedule.nextDispatchTime >= now + DISPATCH_HORIZON_MS) return { fires: 0, skipped: 0 };
      const from = resend ? schedule.nextDispatchTime - DISPATCH_HORIZON_MS : schedule.nextDispatchTime;
      const plan = planFires(schedule, from, now);
      // Sent before the schedule moves on: a crash in between sends them again, never loses them.
      await Promise.all(
        plan.fires.map((fire) =>
          this.deps.queue.send(
            { scheduleName: first.name, ...fire },
            { delayMs: Math.max(0, fire.scheduledTime - now) },
          ),
        ),
      );
      const { nextDispatchTime: _, ...rest } = schedule;
      const moved: ScheduleRecord = {
        ...rest,
        ...(plan.nextRunTime !== undefined ? { nextDispatchTime: plan.nextRunTime } : {}),
        rev: schedule.rev + 1,
      };
      if (plan.nextRunTime !== schedule.nextDispatchTime) await this.deps.schedules.save(moved, schedule.rev);
      if (plan.skipped > 0) {
        this.deps.logger.info('skipped missed schedule fire times', {
          schedule: first.name,
          skipped: plan.skipped,
        });
      }
      return { fires: plan.fires.length, skipped: plan.skipped };
    });
  }

  /** Handles one fire message: starts the workflow once for its scheduled time. */
  async fire(message: ScheduleFireMessage): Promise<FireOutcome> {
    const { scheduleName, cronExpression, zoneId, scheduledTime } = message;
    const { schedules, logger } = this.deps;
    const schedule = await schedules.get(scheduleName);
    const reason = await this.dropReason(schedule, message);
    if (reason !== undefined || !schedule) {
      logger.info('schedule fire dropped', { schedule: scheduleName, scheduledTime, reason });
      return 'dropped';
    }
    const executionId = executionIdOf(scheduleName, cronExpression, scheduledTime);
    const polled: ScheduleExecution = {
      executionId,
      scheduleName,
      scheduledTime,
      executionTime: this.deps.clock.now(),
      workflowName: workflowNameOf(schedule),
      startWorkflowRequest: schedule.startWorkflowRequest,
      state: 'POLLED',
      zoneId,
      cronExpression,
    };
    const existing = await schedules.claimExecution(polled);
    if (existing && existing.state !== 'POLLED') return 'duplicate';
    const execution = existing ?? polled;
    let outcome: StartOutcome;
    try {
      const request = this.deps.starter.parseRequest(execution.startWorkflowRequest);
      const { idempotencyKey: _key, idempotencyStrategy: _strategy, ...own } = request;
      outcome = await this.deps.starter.startRun(
        {
          ...own,
          input: {
            ...(request.input ?? {}),
            _startedByScheduler: scheduleName,
            _scheduledTime: scheduledTime,
            _executedTime: execution.executionTime,
            _executionId: executionId,
            _schedulerCron: cronExpression,
          },
        },
        // The fire's own key: one run per fire, whatever the schedule's request says.
        { idempotency: { key: `schedule:${executionId}`, strategy: 'RETURN_EXISTING' } },
      );
    } catch (error) {
      // Store trouble is retried (the message comes back); a request that cannot start is recorded.
      if (error instanceof DomainError && error.retryable) throw error;
      if (!(error instanceof DomainError)) throw error;
      await schedules.putExecution({
        ...execution,
        state: 'FAILED',
        reason: errorMessage(error).slice(0, REASON_LIMIT),
        stackTrace: (error.stack ?? '').slice(0, STACK_TRACE_LIMIT),
      });
      logger.warn('scheduled workflow did not start', { schedule: scheduleName, error: errorMessage(error) });
      return 'failed';
    }
    await schedules.putExecution({ ...execution, state: 'EXECUTED', workflowId: outcome.workflowId });
    return outcome.created || !existing ? 'executed' : 'duplicate';
  }

  private async dropReason(
    schedule: ScheduleRecord | undefined,
    message: ScheduleFireMessage,
  ): Promise<string | undefined> {
    if (!schedule) return 'the schedule was deleted';
    if (schedule.paused) return 'the schedule is paused';
    if ((await this.deps.schedules.state()).paused) return 'the scheduler is paused';
    const current = cronEntriesOf(schedule).some(
      (e) => e.cronExpression === message.cronExpression && e.zoneId === message.zoneId,
    );
    if (!current) return 'the schedule no longer has this cron expression';
    if (schedule.scheduleStartTime !== undefined && message.scheduledTime < schedule.scheduleStartTime) {
      return 'before the schedule starts';
    }
    if (schedule.scheduleEndTime !== undefined && message.scheduledTime > schedule.scheduleEndTime) {
      return 'after the schedule ends';
    }
    return undefined;
  }
}
