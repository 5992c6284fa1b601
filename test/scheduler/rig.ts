/**
 * A scheduler over the engine harness (memory stores, manual clock) with a work queue that only
 * records what is sent: `deliver()` hands every message whose delay has passed on the manual clock
 * to the fire handler, so tests move time by hand and never sleep.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a correlation id that looks like a template is
// copied literally.
import { silentLogger } from '../../lib/log/logger.ts';
import type { WorkflowRecord } from '../../lib/model/execution.ts';
import type { SendOptions, WorkQueue } from '../../lib/queue/ports.ts';
import { type FireOutcome, ScheduleDispatcher } from '../../lib/scheduler/dispatcher.ts';
import type { ScheduleFireMessage } from '../../lib/scheduler/fire-message.ts';
import { SchedulerService } from '../../lib/scheduler/service.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { simpleTask } from '../helpers/fixtures.ts';

export interface Sent {
  message: ScheduleFireMessage;
  /** When the queue hands it over: send time plus delay. */
  dueAt: number;
}

export class RecordingQueue implements WorkQueue<ScheduleFireMessage> {
  readonly sent: Sent[] = [];
  private readonly pending: Sent[] = [];
  constructor(private readonly now: () => number) {}
  async send(message: ScheduleFireMessage, options: SendOptions = {}): Promise<void> {
    const entry = { message, dueAt: this.now() + (options.delayMs ?? 0) };
    this.sent.push(entry);
    this.pending.push(entry);
  }
  /** Takes the messages due by now, soonest first. */
  takeDue(now: number): Sent[] {
    const due = this.pending.filter((s) => s.dueAt <= now).sort((a, b) => a.dueAt - b.dueAt);
    for (const d of due) this.pending.splice(this.pending.indexOf(d), 1);
    return due;
  }
}

export interface SchedulerRig {
  h: EngineHarness;
  queue: RecordingQueue;
  dispatcher: ScheduleDispatcher;
  service: SchedulerService;
  workflow: string;
  /** Fires every message due by now (as the queue would), returning the outcomes. */
  deliver(): Promise<FireOutcome[]>;
  /** Moves the clock by `ms` in one-minute ticks, delivering due fires on the way. */
  run(ms: number): Promise<void>;
  /** The runs of the rig's workflow, oldest first. */
  runs(): Promise<WorkflowRecord[]>;
}

export async function schedulerRig(start = Date.UTC(2026, 0, 1)): Promise<SchedulerRig> {
  const h = await engineHarness();
  h.clock.set(start);
  const workflow = `sched_wf_${Math.random().toString(36).slice(2, 8)}`;
  await h.register({ name: workflow, version: 1, tasks: [simpleTask('work')], schemaVersion: 2 });
  const queue = new RecordingQueue(() => h.clock.now());
  const dispatcher = new ScheduleDispatcher({
    schedules: h.services.stores.schedules,
    queue,
    starter: h.services.engine.starter,
    clock: h.clock,
    logger: silentLogger,
  });
  const service = new SchedulerService({
    schedules: h.services.stores.schedules,
    dispatcher,
    clock: h.clock,
    logger: silentLogger,
    checkStartRequest: (body) => void h.services.engine.starter.parseRequest(body),
    workflowExists: async (name, version) =>
      (await h.services.metadata.findWorkflowDef(name, version)) !== undefined,
    previewZone: 'UTC',
  });
  const rig: SchedulerRig = {
    h,
    queue,
    dispatcher,
    service,
    workflow,
    async deliver() {
      const outcomes: FireOutcome[] = [];
      for (const { message } of queue.takeDue(h.clock.now())) outcomes.push(await dispatcher.fire(message));
      await h.settle();
      return outcomes;
    },
    async run(ms) {
      const end = h.clock.now() + ms;
      while (h.clock.now() < end) {
        const step = Math.min(60_000, end - h.clock.now());
        // Deliver second by second inside the minute so fires happen at their time.
        for (let t = 0; t < step; t += 1000) {
          h.clock.advance(Math.min(1000, step - t));
          await rig.deliver();
        }
        await dispatcher.tick(h.clock.now());
      }
    },
    async runs() {
      const found = await h.services.stores.executions.findWorkflows({ name: workflow });
      return [...found].sort((a, b) => Number(a.input._scheduledTime) - Number(b.input._scheduledTime));
    },
  };
  return rig;
}

export function scheduleBody(
  rig: SchedulerRig,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: `s_${Math.random().toString(36).slice(2, 8)}`,
    cronExpression: '0 * * * * *',
    startWorkflowRequest: { name: rig.workflow, input: { a: 1 }, correlationId: '${literal}' },
    ...extra,
  };
}
