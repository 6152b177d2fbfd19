import { createClient, type SvcClient } from '@svc/sdk';

/**
 * Where the API answers: the page's own origin (svc serve serves the dashboard), or the address a separately
 * hosted dashboard was built with (`VITE_SVC_API_URL`), which must list the dashboard's origin in
 * SVC_DASHBOARD_ORIGINS.
 */
const apiBaseUrl: string = import.meta.env.VITE_SVC_API_URL ?? window.location.origin;

/**
 * The one API client of the dashboard: every page talks to the API through it. `credentials: 'include'` lets
 * the browser keep and send the HttpOnly session cookie also when the API is on another origin. One retry
 * only: a person is waiting, and the problem display offers its own retry.
 *
 * A `let` so that component tests can point the pages at an in-process API ({@link replaceApiClient}): pages
 * read `api` at each call, so the replacement reaches every one of them through the module binding.
 */
export let api: SvcClient = createClient({ baseUrl: apiBaseUrl, credentials: 'include', maxRetries: 1 });

/**
 * Makes `client` the dashboard's API client. For component tests only (src/testing/): they run without a
 * browser, where no page origin serves the API and Node's fetch keeps no cookies, so they hand in an SDK
 * client of their own server that keeps the session cookie itself. The app never calls it.
 */
export function replaceApiClient(client: SvcClient): void {
  api = client;
}
