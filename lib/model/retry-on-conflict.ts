/**
 * The one retry loop for optimistic writes: run `attempt` (which reads what it needs and writes
 * conditionally) again when a concurrent change made a write fail with VersionConflictError, up to
 * a bound. Any other error, or a conflict on the last attempt, goes to the caller.
 */
import { VersionConflictError } from './errors.ts';

/** Enough for the few writers a run has (decider, workers, API operations) to settle. */
export const DEFAULT_CONFLICT_ATTEMPTS = 8;

export async function retryOnConflict<T>(
  attempt: (n: number) => Promise<T>,
  maxAttempts = DEFAULT_CONFLICT_ATTEMPTS,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof VersionConflictError) || n >= maxAttempts) throw error;
    }
  }
}
