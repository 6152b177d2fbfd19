import { ApiError, type FieldError, isAborted, isNetworkError } from '@svc/sdk';
import { PasskeyCeremonyError } from '../passkeys/webauthn.js';
import { wordingOf } from './problem-advice.js';

/** A failure as the dashboard shows it: never raw JSON, always a title and what to do. */
export interface DisplayProblem {
  /** HTTP status, undefined when no answer came (network) or the page itself failed. */
  status: number | undefined;
  /** The problem code, or `network_error` / `script_error` for failures without an answer. */
  code: string;
  title: string;
  /** The server's own explanation of this occurrence. */
  detail: string | undefined;
  advice: string | undefined;
  /** Seconds until a retry can succeed (Retry-After), shown as a countdown. */
  retryAfter: number | undefined;
  /** The answer's request id, to quote to support. */
  requestId: string | undefined;
  /** Per-field failures of a 422, shown at their fields. */
  fieldErrors: FieldError[];
}

/** Turns whatever a call threw into a {@link DisplayProblem}. */
export function problemOf(error: unknown): DisplayProblem {
  if (error instanceof ApiError) {
    const wording = wordingOf(error.code, error.status);
    return {
      status: error.status,
      code: error.code,
      title: wording.title,
      detail: error.problem.detail,
      advice: wording.advice,
      retryAfter: error.retryAfter,
      requestId: error.requestId,
      fieldErrors: error.fieldErrors,
    };
  }
  if (error instanceof PasskeyCeremonyError) {
    return {
      status: undefined,
      code: `passkey_${error.reason}`,
      title: error.reason === 'cancelled' ? 'No passkey was used' : 'The passkey did not work',
      detail: error.message,
      advice: 'Try again, or use your password.',
      retryAfter: undefined,
      requestId: undefined,
      fieldErrors: [],
    };
  }
  const code = isNetworkError(error) || isAborted(error) ? 'network_error' : 'script_error';
  const wording = wordingOf(code, undefined);
  return {
    status: undefined,
    code,
    title: wording.title,
    detail: undefined,
    advice: wording.advice,
    retryAfter: undefined,
    requestId: undefined,
    fieldErrors: [],
  };
}

/** True when the failure is the session having ended: the app then goes to the sign-in page. */
export function isSignedOut(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
