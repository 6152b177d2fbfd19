import type { Problem, ProblemCode } from '@svc/domain';
import type { OpenEnum } from './open-enum.js';

/**
 * A problem code: one of spec section 7 (offered by editors), or any other string, since codes are only ever
 * added within /v1 and a newer server may answer one this SDK does not know yet.
 */
export type ApiErrorCode = OpenEnum<ProblemCode>;

/** A field-level failure of a request (problem `errors[]`). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * An answer of the API with an error status, carrying its problem document. Match on `code` (spec section 7);
 * unknown codes may appear and are kept as strings.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly fieldErrors: FieldError[];
  /** Seconds to wait before retrying, from Retry-After or the problem's retry_after. */
  readonly retryAfter: number | undefined;
  /** The problem document as received (or a synthesised one when the body was not a problem). */
  readonly problem: Partial<Problem>;

  constructor(
    status: number,
    problem: Partial<Problem>,
    headers: { requestId?: string; retryAfter?: number },
  ) {
    super(`${status} ${problem.code ?? 'unknown'}: ${problem.detail ?? problem.title ?? 'request failed'}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = problem.code ?? 'unknown';
    this.requestId = problem.request_id ?? headers.requestId;
    this.fieldErrors = problem.errors ?? [];
    this.retryAfter = problem.retry_after ?? headers.retryAfter;
    this.problem = problem;
  }

  /** Whether the problem's code is `code` (or one of `codes`): `error.is('version_mismatch')`. */
  is(...codes: ApiErrorCode[]): boolean {
    return codes.includes(this.code);
  }

  /** True for 400 and 422 answers: the request itself must change. */
  get isInvalidRequest(): boolean {
    return this.status === 400 || this.status === 422;
  }

  /** True for 401 and 403 answers. */
  get isAuthError(): boolean {
    return this.status === 401 || this.status === 403;
  }

  /** True for 404 (also another organisation's resources). */
  get isNotFound(): boolean {
    return this.status === 404;
  }

  /** True for 409 and 412 answers: the resource's state forbids the change. */
  get isConflict(): boolean {
    return this.status === 409 || this.status === 412;
  }

  /** True for 429, 502, 503 and 504 answers, which may succeed later (see retryAfter). */
  get isRetryable(): boolean {
    return RETRYABLE_STATUSES.has(this.status);
  }
}

/** Statuses a later identical call may get past: rate limits and a gateway or server briefly unavailable. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * The request never got a complete HTTP answer (connection refused or reset, DNS failure, body cut short).
 * Whether the server acted on it is unknown: only calls safe to repeat are retried.
 */
export class NetworkError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

/** No complete answer within the time-out (`timeoutMs`). A NetworkError, so one catch covers both. */
export class TimeoutError extends NetworkError {
  /** The time-out that elapsed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(message: string, options: { cause: unknown; timeoutMs: number }) {
    super(message, options);
    this.name = 'TimeoutError';
    this.timeoutMs = options.timeoutMs;
  }
}

/** The caller aborted the call through its AbortSignal; never retried. */
export class RequestAbortedError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'AbortError';
  }
}

/** Narrows `error` to an ApiError, optionally of one code: `if (isApiError(error, 'not_found')) …`. */
export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** A 429 answer (`rate_limited`, `too_many_streams`, …): wait `retryAfter` seconds before trying again. */
export function isRateLimited(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 429;
}

/** A 400 or 422 answer (`validation_failed`, `bad_request`, …): the request must change; see `fieldErrors`. */
export function isValidation(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 400 || error.status === 422);
}

/**
 * A 401 or 403 answer: missing or dead credential, missing scope, second factor or re-authentication needed,
 * or (`email_unverified`) an account that must verify its address before it creates a lasting credential.
 */
export function isAuth(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

/** A 404 answer: the resource does not exist, or belongs to another organisation. */
export function isNotFound(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 404;
}

/** A 409 or 412 answer (`version_mismatch`, `ip_conflict`, …): the resource's current state forbids the change. */
export function isConflict(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 409 || error.status === 412);
}

/** A 502, 503 or 504 answer: the service or a node behind it is briefly unavailable. */
export function isUnavailable(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 502 || error.status === 503 || error.status === 504);
}

/** A failure without a complete HTTP answer, time-outs included. */
export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}

/** A call that got no complete answer within its time-out. */
export function isTimeout(error: unknown): error is TimeoutError {
  return error instanceof TimeoutError;
}

/** A call the caller aborted with its AbortSignal. */
export function isAborted(error: unknown): error is RequestAbortedError {
  return error instanceof RequestAbortedError;
}
