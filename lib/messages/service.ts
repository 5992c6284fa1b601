/**
 * Pushing messages into a running workflow (docs/api.md "Workflow message and pull-task output",
 * "Errors"). A push is accepted only while the run is RUNNING: the message is added hidden, the run
 * is read again, and only then shown, so a run that stopped running during the push (terminated,
 * paused, completed) leaves nothing stored, and a run that ends after the message is shown has its
 * whole queue deleted by the engine (Executor's end hook). After a push the run is decided at once,
 * so a waiting PULL_WORKFLOW_MESSAGES resumes.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../model/clock.ts';
import { ConflictError, NotFoundError, TooManyRequestsError } from '../model/errors.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { RunStore } from '../store/ports.ts';
import type { MessageStore, QueuedMessage } from './ports.ts';

export interface MessageLimits {
  maxQueueSize: number;
  ttlSeconds: number;
}

export interface MessageServiceDeps {
  messages: MessageStore;
  executions: RunStore;
  decisions: DecisionQueue;
  clock: Clock;
  limits: MessageLimits;
}

/** Orders messages received in the same millisecond by this process. */
let counter = 0;

/** A sort key that orders messages by arrival: the millisecond, then a counter, then randomness. */
export function sequenceOf(now: number): string {
  counter = (counter + 1) % 1_000_000;
  return `${String(now).padStart(15, '0')}-${String(counter).padStart(6, '0')}-${randomUUID().slice(0, 8)}`;
}

export class MessageService {
  constructor(private readonly deps: MessageServiceDeps) {}

  /** Pushes one message; answers its id. */
  async push(workflowId: string, payload: Record<string, unknown>): Promise<string> {
    const { messages, executions, clock, limits } = this.deps;
    await this.requireRunning(workflowId);
    const now = clock.now();
    const message: QueuedMessage = {
      id: randomUUID(),
      workflowId,
      payload,
      receivedAt: new Date(now).toISOString(),
      seq: sequenceOf(now),
      expiresAt: now + limits.ttlSeconds * 1000,
    };
    if ((await messages.add(message, limits.maxQueueSize, now)) === 'full') {
      throw new TooManyRequestsError(
        `Message queue of workflow ${workflowId} is full (maxQueueSize ${limits.maxQueueSize}); retry later`,
      );
    }
    const run = await executions.getWorkflow(workflowId);
    if (run?.status !== 'RUNNING') {
      await messages.withdraw(workflowId, message.seq);
      throw notRunning(workflowId, run?.status ?? 'removed');
    }
    await messages.confirm(workflowId, message.seq);
    await this.deps.decisions.request(workflowId);
    return message.id;
  }

  private async requireRunning(workflowId: string): Promise<void> {
    const run = await this.deps.executions.getWorkflow(workflowId);
    if (!run) throw new NotFoundError(`No such workflow instance: ${workflowId}`);
    if (run.status !== 'RUNNING') throw notRunning(workflowId, run.status);
  }
}

const notRunning = (workflowId: string, status: string) =>
  new ConflictError(`Workflow ${workflowId} is ${status}; messages are accepted only while it is RUNNING`);
