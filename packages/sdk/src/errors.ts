import type { Problem, ProblemCode } from '@svc/domain';

/**
 * A problem code: one of spec section 7 (offered by editors), or any other string, since codes are only ever
 * added within /v1 and a newer server may answer one this SDK does not know yet.
 */
export type ApiErrorCode = ProblemCode | (string & Record<never, never>);

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

  /** True for 429 and 503 answers, which may succeed later (see retryAfter). */
  get isRetryable(): boolean {
    return this.status === 429 || this.status === 503;
  }
}

/** The request never got an HTTP answer (connection refused, reset, timed out). */
export class NetworkError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

/** Narrows `error` to an ApiError, optionally of one code: `if (isApiError(error, 'not_found')) …`. */
export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
