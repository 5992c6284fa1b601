/**
 * The queue monitor's rows: one per worker queue (`<domain>:<taskType>`, or the task type alone
 * without a domain), from the queue sizes (`GET /api/tasks/queue/all`) and the last polls
 * (`GET /api/tasks/queue/polldata/all`): a queue that was polled but holds nothing is listed with
 * size 0, one that holds tasks no worker polled for is listed with no workers. Sorted by task type,
 * then domain.
 */
import type { PollData } from '../api/routes.ts';

export interface QueueRow {
  queue: string;
  taskType: string;
  domain: string;
  /** Tasks waiting to be polled. */
  size: number;
  /** The workers that polled, latest first. */
  workers: { workerId: string; lastPollTime: number }[];
  /** The latest poll of any worker, or 0 when none polled. */
  lastPollTime: number;
}

/** A queue name's domain and task type (`blue:charge` → `blue`, `charge`). */
export function splitQueueName(queue: string, domain?: string): { domain: string; taskType: string } {
  if (domain && queue.startsWith(`${domain}:`)) return { domain, taskType: queue.slice(domain.length + 1) };
  const colon = queue.indexOf(':');
  return colon < 0
    ? { domain: '', taskType: queue }
    : { domain: queue.slice(0, colon), taskType: queue.slice(colon + 1) };
}

export function queueRows(sizes: Record<string, number>, polls: readonly PollData[]): QueueRow[] {
  const rows = new Map<string, QueueRow>();
  const rowOf = (queue: string, domain?: string) => {
    let row = rows.get(queue);
    if (!row) {
      row = { queue, ...splitQueueName(queue, domain), size: 0, workers: [], lastPollTime: 0 };
      rows.set(queue, row);
    }
    return row;
  };
  for (const [queue, size] of Object.entries(sizes)) rowOf(queue).size = size;
  for (const poll of polls) {
    const row = rowOf(poll.queueName, poll.domain);
    row.workers.push({ workerId: poll.workerId ?? '(no worker id)', lastPollTime: poll.lastPollTime });
    row.lastPollTime = Math.max(row.lastPollTime, poll.lastPollTime);
  }
  for (const row of rows.values()) row.workers.sort((a, b) => b.lastPollTime - a.lastPollTime);
  return [...rows.values()].sort(
    (a, b) => a.taskType.localeCompare(b.taskType) || a.domain.localeCompare(b.domain),
  );
}
