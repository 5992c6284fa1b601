/**
 * Bulk operations (docs/conductor-compat.md §1.4, §2.10): one operation over 1 to 1,000 workflow
 * ids, answered as a BulkResponse. A failure never changes the answer's status: each failed id is
 * reported with its error's message, each succeeded one listed. Ids run a few at a time, so a
 * thousand ids neither run one by one nor start a thousand store conversations at once.
 */
import { errorMessage, ValidationError } from '../../model/errors.ts';

export interface BulkResponse {
  bulkSuccessfulResults: string[];
  bulkErrorResults: Record<string, string>;
}

/** Conductor's bound: more ids is a 400. */
export const MAX_BULK_IDS = 1000;

/** Operations in flight at once within one bulk request. */
const BULK_CONCURRENCY = 8;

/** The ids of a bulk request body: a JSON array of 1 to 1,000 non-empty strings. */
export function bulkIds(body: unknown): string[] {
  if (!Array.isArray(body)) {
    throw new ValidationError('A bulk request body must be a JSON array of workflow ids', [
      { path: '', message: 'must be an array of workflow ids' },
    ]);
  }
  if (body.length === 0 || body.length > MAX_BULK_IDS) {
    throw new ValidationError(`A bulk request takes 1 to ${MAX_BULK_IDS} workflow ids, got ${body.length}`, [
      { path: '', message: `must hold 1 to ${MAX_BULK_IDS} ids`, invalidValue: body.length },
    ]);
  }
  const bad = body.findIndex((id) => typeof id !== 'string' || id === '');
  if (bad >= 0) {
    throw new ValidationError('Every workflow id of a bulk request must be a non-empty string', [
      { path: `[${bad}]`, message: 'must be a non-empty string' },
    ]);
  }
  // An id listed twice is operated on once: a second pause or terminate would only report a
  // conflict with the first.
  return [...new Set(body as string[])];
}

/** Runs `operation` for every id, collecting successes and per-id error messages. */
export async function runBulk(
  ids: readonly string[],
  operation: (workflowId: string) => Promise<unknown>,
): Promise<BulkResponse> {
  const succeeded = new Set<string>();
  const bulkErrorResults: Record<string, string> = {};
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < ids.length) {
      const id = ids[next++] as string;
      try {
        await operation(id);
        succeeded.add(id);
      } catch (error) {
        bulkErrorResults[id] = errorMessage(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, ids.length) }, lane));
  // Successes in request order, whatever order the lanes finished in.
  return { bulkSuccessfulResults: ids.filter((id) => succeeded.has(id)), bulkErrorResults };
}
