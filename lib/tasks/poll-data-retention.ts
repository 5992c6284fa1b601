/**
 * Retention of poll data (`service.task.poll-data-retention`, 7 days by default): a decorator over
 * the poll data store that stamps each recorded poll with `expiresAt` (poll time + retention), which
 * the DynamoDB adapter writes as the item's `ttl`. A worker that stops polling thus leaves no row
 * behind for good; since DynamoDB deletes up to 48 h late (and dynalite never does), a read drops
 * an expired row itself. Each poll rewrites its row, so an active worker's row never expires.
 */
import type { Clock } from '../model/clock.ts';
import type { PollData, PollDataStore } from '../store/ports.ts';

export function retainingPollData(inner: PollDataStore, retentionMs: number, clock: Clock): PollDataStore {
  if (retentionMs <= 0) return inner;
  return {
    record: (data) => inner.record({ ...data, expiresAt: clock.now() + retentionMs }),
    list: async (queueName) => {
      const now = clock.now();
      return (await inner.list(queueName))
        .filter((data) => data.expiresAt === undefined || data.expiresAt > now)
        .map(({ expiresAt: _expiresAt, ...data }): PollData => data);
    },
  };
}
