/**
 * Handles one event for the event handlers (docs/conductor-compat.md §4.8.7, DefaultEventProcessor):
 * every active handler of the event's name evaluates its `condition` on the payload (`$` = the
 * payload, in the INLINE sandbox; `value-param`: the payload's field of that name is truthy), then
 * carries out its actions with parameters resolved against the payload (`${data.orderId}`), each
 * recorded as an EventExecution.
 *
 * Exactly once per message, handler and action: the execution's id derives from the three, and it
 * is claimed conditionally before the action runs, so a message delivered again (SQS redelivery,
 * an EVENT task started twice) finds COMPLETED, FAILED or SKIPPED and does nothing. A claimer that
 * died mid-action holds a lease; once it runs out the next delivery takes over and runs the action
 * again (start_workflow then finds the run it started under its derived id). A delivery that meets
 * a live lease throws, so the message comes back later.
 *
 * A failure a retry cannot repair (a bad parameter, an unknown workflow, a state conflict) marks the
 * execution FAILED; anything else (store trouble, a full message queue) is thrown on and the
 * message delivered again (Conductor re-publishes on transient failures).
 */

import { ScriptError, type ScriptEvaluator } from '../engine/script/evaluator.ts';
import { resolveAgainst } from '../engine/templating.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../model/clock.ts';
import { DomainError, errorMessage, TransientError } from '../model/errors.ts';
import { derivedId } from '../model/ids.ts';
import type { EventMessage } from '../queue/work-queues.ts';
import { type ActionPorts, runAction } from './actions.ts';
import type { EventAction, EventExecution, EventHandler } from './model.ts';
import type { EventExecutionStore, EventHandlerStore } from './ports.ts';

/** How long a claimer may take over one action before another delivery takes over (≥ consumer timeout). */
export const EXECUTION_LEASE_MS = 90_000;

export interface EventProcessorDeps {
  handlers: EventHandlerStore;
  executions: EventExecutionStore;
  scripts: ScriptEvaluator;
  actions: ActionPorts;
  clock: Clock;
  logger: Logger;
  /** How long execution records are kept (`service.events.execution-ttl-seconds`). */
  executionTtlMs: number;
}

/** The execution id of one action of one handler for one message. */
export const eventExecutionIdOf = (messageId: string, handler: string, index: number): string =>
  derivedId('event-execution', messageId, handler, index);

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A payload sent as JSON text is parsed; any other text stays a string (§4.8.7). */
export function payloadOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** `expandInlineJSON`: JSON objects and lists held as strings inside the payload are parsed. */
function expandInlineJson(value: unknown): unknown {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value;
    const parsed = payloadOf(value);
    return parsed === value ? value : expandInlineJson(parsed);
  }
  if (Array.isArray(value)) return value.map(expandInlineJson);
  if (isMap(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandInlineJson(v)]));
  return value;
}

export class EventProcessor {
  constructor(private readonly deps: EventProcessorDeps) {}

  /** Runs every active handler of the message's event; answers the executions this delivery recorded. */
  async handle(message: EventMessage): Promise<EventExecution[]> {
    const handlers = (await this.deps.handlers.list()).filter(
      // As in Conductor, only handlers saved with `active: true` run.
      (h) => h.event === message.event && h.active === true,
    );
    const payload = payloadOf(message.payload);
    const recorded: EventExecution[] = [];
    for (const handler of handlers) recorded.push(...(await this.runHandler(handler, message, payload)));
    return recorded;
  }

  private async runHandler(
    handler: EventHandler,
    message: EventMessage,
    payload: unknown,
  ): Promise<EventExecution[]> {
    const verdict = await this.evaluate(handler, payload);
    const recorded: EventExecution[] = [];
    for (const [index, action] of handler.actions.entries()) {
      const execution: EventExecution = {
        id: eventExecutionIdOf(message.messageId, handler.name, index),
        messageId: message.messageId,
        name: handler.name,
        event: message.event,
        created: this.deps.clock.now(),
        status: 'IN_PROGRESS',
        action: action.action,
        payload,
      };
      const done = await this.runAction(execution, action, verdict, payload);
      if (done) recorded.push(done);
    }
    return recorded;
  }

  /** true: run the actions; false: skip them; a string: the condition failed, saying why. */
  private async evaluate(handler: EventHandler, payload: unknown): Promise<boolean | string> {
    const condition = handler.condition?.trim();
    if (!condition) return true;
    if (handler.evaluatorType === 'value-param') return isMap(payload) && Boolean(payload[condition]);
    try {
      const bindings = isMap(payload) ? payload : { payload };
      return Boolean(await this.deps.scripts.evaluate(condition, bindings));
    } catch (error) {
      // The sandbox itself failed (closing, a crashed worker): worth another delivery.
      if (!(error instanceof ScriptError) || error.kind === 'crash') throw error;
      return `Condition of event handler ${handler.name} failed: ${error.message}`;
    }
  }

  private async runAction(
    execution: EventExecution,
    action: EventAction,
    verdict: boolean | string,
    payload: unknown,
  ): Promise<EventExecution | undefined> {
    const { executions, clock } = this.deps;
    const now = clock.now();
    const expiresAt = now + this.deps.executionTtlMs;
    const claim = await executions.claim(execution, now + EXECUTION_LEASE_MS, expiresAt, now);
    if (!claim.claimed) {
      if (claim.existing.status !== 'IN_PROGRESS') return undefined;
      throw new TransientError(
        `Event execution ${execution.id} (${execution.name}, ${execution.action}) is being carried out by another delivery`,
      );
    }
    let finished: EventExecution;
    if (verdict === false) finished = { ...execution, status: 'SKIPPED' };
    else if (typeof verdict === 'string')
      finished = { ...execution, status: 'FAILED', statusDescription: verdict };
    else {
      try {
        finished = await this.carryOut(execution, action, payload);
      } catch (error) {
        // The lease is given up, so the next delivery takes over at once.
        await executions.finish(execution, expiresAt);
        throw error;
      }
    }
    await executions.finish(finished, expiresAt);
    if (finished.status === 'FAILED') {
      this.deps.logger.warn('event handler action failed', {
        handler: execution.name,
        event: execution.event,
        action: execution.action,
        reason: finished.statusDescription,
      });
    }
    return finished;
  }

  private async carryOut(
    execution: EventExecution,
    action: EventAction,
    payload: unknown,
  ): Promise<EventExecution> {
    const source = action.expandInlineJSON === true ? expandInlineJson(payload) : payload;
    const document = isMap(source) ? source : {};
    const params = resolveAgainst(action[action.action] ?? {}, document);
    try {
      const output = await runAction(this.deps.actions, action.action, isMap(params) ? params : {}, {
        executionId: execution.id,
        messageId: execution.messageId,
        event: execution.event,
        payload: source,
      });
      return { ...execution, status: 'COMPLETED', output };
    } catch (error) {
      // Another delivery repairs only what may pass by itself; the lease lets it take over.
      if (!(error instanceof DomainError) || error.retryable) throw error;
      return { ...execution, status: 'FAILED', statusDescription: errorMessage(error) };
    }
  }
}
