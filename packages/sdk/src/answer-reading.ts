import type { Problem } from '@svc/domain';
import { ApiError } from './errors.js';
import { retryAfterSeconds } from './retry-policy.js';
import type { ApiRequest } from './transport.types.js';

// What an answer's body means: a successful call's data, or the problem document of an error status.

/** An answer as read off the wire: status, headers (names in lower case) and the whole body. */
export interface ReadAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * A successful answer's data: JSON parsed when the answer says JSON, any other body as text, undefined when
 * empty; always the text for `responseType: 'text'`. Typed, not validated: unknown fields and enum values must
 * pass through (spec 9.3).
 */
export function dataOf<T>(answer: ReadAnswer, responseType: ApiRequest['responseType']): T {
  const contentType = answer.headers['content-type'] ?? '';
  const { text } = answer;
  if (responseType === 'text') return text as T;
  if (text.length === 0) return undefined as T;
  return (/json/.test(contentType) ? JSON.parse(text) : text) as T;
}

/** The problem document of an error answer, or one made up from its start when the body is not JSON. */
function problemOf(text: string, status: number): Partial<Problem> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) return parsed as Partial<Problem>;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  return { status, code: 'unknown', detail: text.slice(0, 200) };
}

/** The {@link ApiError} of an error answer, with its request id and Retry-After. */
export function apiErrorOf(answer: ReadAnswer): ApiError {
  return new ApiError(answer.status, problemOf(answer.text, answer.status), {
    requestId: answer.headers['x-request-id'],
    retryAfter: retryAfterSeconds(answer.headers['retry-after']),
  });
}
