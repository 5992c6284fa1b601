/**
 * The request id of the Lambda invocation running now, for the log lines it writes. A Lambda
 * execution environment runs one invocation at a time, so one module-level slot is exact there; the
 * local host serves requests concurrently and does not use it (its access lines carry their own id).
 */
import type { LogFields } from './logger.ts';

let current: LogFields | undefined;

/** Called by the Lambda handlers as an invocation starts. */
export function beginInvocation(requestId: string | undefined): void {
  current = requestId === undefined ? undefined : { requestId };
}

/** The fields the AWS logger adds to every line (LoggerOptions.context). */
export const invocationContext = (): LogFields | undefined => current;
