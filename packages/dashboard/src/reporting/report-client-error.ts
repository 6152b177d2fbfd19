import { ApiError } from '@svc/sdk';
import { version } from '../../package.json';
import { api } from '../api/client.js';

/** Reports sent per page load at most: a failing loop must not spend the account's 10 a minute. */
const MAX_REPORTS_PER_PAGE = 5;
const sent = new Set<string>();

/**
 * The page's address without its query and fragment: emailed links carry single-use tokens there
 * (`/verify-email?token=…`), which must never leave in a report.
 */
function scrubbedUrl(): string {
  return `${window.location.origin}${window.location.pathname}`;
}

/**
 * Sends one failure to `POST /v1/client-errors` (spec 4.11): script errors, failed renders and the API's 5xx
 * answers. Best effort: the same message goes once per page load, and a failure to report is dropped (an
 * unauthenticated visitor's report is refused with 401, which is expected).
 */
export function reportClientError(error: unknown, kind: string): void {
  const message =
    error instanceof ApiError
      ? `${error.status} ${error.code}${error.requestId === undefined ? '' : ` (request ${error.requestId})`}`
      : error instanceof Error
        ? error.message
        : String(error);
  const key = `${kind}:${message}`;
  if (sent.has(key) || sent.size >= MAX_REPORTS_PER_PAGE || message.length === 0) return;
  sent.add(key);
  const stack = error instanceof Error && !(error instanceof ApiError) ? error.stack : undefined;
  void api.clientErrors
    .report({
      message: message.slice(0, 2000),
      ...(stack === undefined ? {} : { stack: stack.slice(0, 16_000) }),
      url: scrubbedUrl(),
      user_agent: navigator.userAgent,
      dashboard_version: version,
      kind,
      name: error instanceof Error ? error.name : typeof error,
    })
    .catch(() => undefined);
}

/** True for what the dashboard reports of an API call: the server's own failures (5xx). */
export function isReportableApiFailure(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 500;
}

/** Reports uncaught script errors and unhandled promise rejections of the page. */
export function installErrorReporting(): void {
  window.addEventListener('error', (event) => reportClientError(event.error ?? event.message, 'error'));
  window.addEventListener('unhandledrejection', (event) =>
    reportClientError(event.reason, 'unhandledrejection'),
  );
}
