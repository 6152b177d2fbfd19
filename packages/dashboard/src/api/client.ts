import { createClient } from '@svc/sdk';

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
 */
export const api = createClient({ baseUrl: apiBaseUrl, credentials: 'include', maxRetries: 1 });
