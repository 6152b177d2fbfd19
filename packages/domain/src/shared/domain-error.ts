import type { ProblemCode } from './problem-codes.js';

/** A failure of one field of a request, named by its dotted path (`settings.block_mode`). */
export interface FieldError {
  field: string;
  message: string;
}

/** Options of a {@link DomainError}. */
export interface DomainErrorOptions {
  fieldErrors?: FieldError[];
  /** Seconds after which a retry may succeed; sent as Retry-After. */
  retryAfter?: number;
  cause?: unknown;
}

/**
 * The one error type the domain raises. It carries a stable spec code and never knows HTTP: the server maps
 * codes to statuses in one place.
 */
export class DomainError extends Error {
  readonly code: ProblemCode;
  readonly fieldErrors: FieldError[];
  readonly retryAfter: number | undefined;

  constructor(code: ProblemCode, detail: string, options: DomainErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.fieldErrors = options.fieldErrors ?? [];
    this.retryAfter = options.retryAfter;
  }
}

/** A request whose fields break their rules: 422 validation_failed unless a narrower code is given. */
export function validationFailed(
  fieldErrors: FieldError[],
  detail = 'The request has invalid fields.',
): DomainError {
  return new DomainError('validation_failed', detail, { fieldErrors });
}

/** The resource does not exist or belongs to another organisation (never 403, spec 1.9). */
export function notFound(what = 'resource'): DomainError {
  return new DomainError('not_found', `The ${what} was not found.`);
}
