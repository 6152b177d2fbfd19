import { STATUS_CODES } from 'node:http';
import { isDependencyUnavailable } from '@svc/adapters';
import { DomainError, type FieldError, type Problem, type ProblemCode } from '@svc/domain';
import { PROBLEM_STATUS } from './problem-status.js';

/** Everything needed to answer with a problem document. */
export interface ProblemResponse {
  status: number;
  body: Problem;
  retryAfter: number | undefined;
}

/** Builds the problem document (spec 2.12) for `code`. */
export function problemFor(
  code: ProblemCode,
  detail: string,
  context: { requestId: string; problemBase: string },
  extra: { fieldErrors?: FieldError[]; retryAfter?: number | undefined; status?: number } = {},
): ProblemResponse {
  const status = extra.status ?? PROBLEM_STATUS[code];
  const body: Problem = {
    type: `${context.problemBase}/${code}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    code,
    detail,
    request_id: context.requestId,
  };
  if (extra.fieldErrors !== undefined && extra.fieldErrors.length > 0) body.errors = extra.fieldErrors;
  if (extra.retryAfter !== undefined) body.retry_after = Math.max(1, Math.ceil(extra.retryAfter));
  return { status, body, retryAfter: body.retry_after };
}

/** Body-parser failures carry an HTTP status and a `type`; these are the ones a client can cause. */
interface HttpParserError {
  type: string;
  status: number;
}

function isHttpParserError(error: unknown): error is HttpParserError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as Partial<HttpParserError>).type === 'string' &&
    typeof (error as Partial<HttpParserError>).status === 'number'
  );
}

/** Seconds a client is told to wait before retrying while a dependency is out of reach. */
const DEPENDENCY_RETRY_AFTER_SECONDS = 1;

/**
 * The one mapping from anything thrown to a problem document. Domain errors keep their code; request-parsing
 * failures become 400s; a storage engine or service out of reach is 503 (code internal) with Retry-After;
 * everything else is 500 internal with no detail of the cause.
 */
export function problemFromError(
  error: unknown,
  context: { requestId: string; problemBase: string },
): ProblemResponse {
  if (error instanceof DomainError) {
    return problemFor(error.code, error.message, context, {
      fieldErrors: error.fieldErrors,
      retryAfter: error.retryAfter,
    });
  }
  if (isHttpParserError(error)) {
    if (error.type === 'entity.too.large') {
      return problemFor('body_too_large', 'The request body is larger than this server accepts.', context);
    }
    if (error.type === 'entity.parse.failed') {
      return problemFor('bad_request', 'The request body is not valid JSON.', context);
    }
    if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
      return problemFor('unsupported_media_type', 'The request body encoding is not supported.', context);
    }
    if (error.status >= 400 && error.status < 500) {
      return problemFor('bad_request', 'The request could not be read.', context);
    }
  }
  // The router decodes path parameters itself; a malformed percent-escape (`/v1/profiles/%zz`) is the
  // client's, not a server failure.
  if (error instanceof URIError) {
    return problemFor('bad_request', 'The request path has a malformed percent-escape.', context);
  }
  if (isDependencyUnavailable(error)) {
    // The spec's code enumeration (section 7) has no code of its own for this: `internal`, whose status the
    // spec leaves open, with 503 and Retry-After tells a client the condition is transient.
    return problemFor(
      'internal',
      'A service this server depends on is unavailable; retry shortly.',
      context,
      { retryAfter: DEPENDENCY_RETRY_AFTER_SECONDS, status: 503 },
    );
  }
  return problemFor(
    'internal',
    'The server failed to handle this request; quote the request id when reporting it.',
    context,
  );
}
