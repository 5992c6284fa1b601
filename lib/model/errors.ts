/**
 * Typed domain errors. Every layer throws these; exactly one place (lib/http/error-response.ts)
 * maps them to HTTP statuses. Whether a caller may retry is part of the type, never a string match.
 */

export interface FieldError {
  path: string;
  message: string;
  invalidValue?: unknown;
}

export abstract class DomainError extends Error {
  /** True when the same request may succeed later without change (transient store trouble). */
  readonly retryable: boolean = false;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request is malformed or fails validation (400). */
export class ValidationError extends DomainError {
  constructor(
    message: string,
    readonly validationErrors: FieldError[] = [],
  ) {
    super(message);
  }
}

/** The addressed resource does not exist, or its feature is switched off (404). */
export class NotFoundError extends DomainError {}

/** The request conflicts with the current state of the resource (409). */
export class ConflictError extends DomainError {}

/** A versioned write lost a race with another writer; the caller should re-read and retry (409). */
export class VersionConflictError extends ConflictError {
  override readonly retryable = true;
}

/**
 * The request carries no valid credential (401). `code` is the Orkes token error code the SDKs read
 * from the error body's `error` field: on EXPIRED_TOKEN or INVALID_TOKEN they fetch a new token and
 * retry once (docs/api.md "Authentication").
 */
export class UnauthorizedError extends DomainError {
  constructor(
    message: string,
    readonly code?: 'EXPIRED_TOKEN' | 'INVALID_TOKEN',
  ) {
    super(message);
  }
}

/** The caller may not do this to this resource (403). */
export class ForbiddenError extends DomainError {}

/** The method is not allowed on this path or for this credential (405). */
export class MethodNotAllowedError extends DomainError {}

/** The request body or payload exceeds a configured limit (413). */
export class PayloadTooLargeError extends DomainError {}

/** The request target (path and query) is longer than the server accepts (414). */
export class UriTooLongError extends DomainError {}

/** The request's header section is larger than the server accepts (431). */
export class HeadersTooLargeError extends DomainError {}

/** A bounded resource is full; the caller backs off and retries (429). */
export class TooManyRequestsError extends DomainError {
  override readonly retryable = true;
}

/** A dependency failed transiently (503); safe to retry. */
export class TransientError extends DomainError {
  override readonly retryable = true;
}

/** The message of anything thrown (an Error's message, else its string form), for logs and reasons. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Longest part of a client's input an error message repeats. */
export const QUOTE_LIMIT = 100;

/**
 * A client's input (a name, an id) as an error message repeats it: whole when short, else its
 * first QUOTE_LIMIT characters and its length, so a 5 MB name never comes back in a 404.
 */
export function quote(value: unknown): string {
  const text = String(value);
  if (text.length <= QUOTE_LIMIT) return text;
  return `${text.slice(0, QUOTE_LIMIT)}... (${text.length} characters)`;
}
