import type { Request, Response } from 'express';
import { originOf } from './request-locals.js';
import { sendProblem } from './send-problem.js';

/** The public signup surfaces with their own CORS rules (spec 4.1.7). */
const SIGNUP_SURFACES: ReadonlySet<string> = new Set([
  '/v1/auth/signup',
  '/v1/auth/signup-mode',
  '/v1/waitlist',
  '/v1/waitlist/confirm',
]);

const EXPOSED_HEADERS = 'ETag, Retry-After, X-Request-Id, Content-Disposition, Location';
const DASHBOARD_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const DASHBOARD_HEADERS = 'Content-Type, If-Match, Idempotency-Key, Last-Event-ID, Authorization';
const PREFLIGHT_MAX_AGE = '600';

/** Allowed origins of both kinds of surface. */
export interface CorsOrigins {
  dashboard: ReadonlySet<string>;
  signup: ReadonlySet<string>;
}

function appendVary(res: Response, field: string): void {
  const current = res.getHeader('Vary');
  const values = typeof current === 'string' ? current.split(',').map((value) => value.trim()) : [];
  if (!values.includes(field)) res.setHeader('Vary', [...values, field].filter(Boolean).join(', '));
}

/**
 * CORS headers of actual (non-preflight) responses: dashboard origins get credentials and the exposed headers
 * on every /v1 route; signup surfaces name only their exact origins; unallowed origins get nothing.
 */
export function corsHeaders(origins: CorsOrigins) {
  return (req: Request, res: Response): void => {
    const origin = originOf(req);
    if (SIGNUP_SURFACES.has(req.path)) {
      if (origin !== undefined) {
        appendVary(res, 'Origin');
        if (origins.signup.has(origin)) {
          res.setHeader('Access-Control-Allow-Origin', origin);
          res.setHeader('Access-Control-Allow-Credentials', 'true');
        }
      }
    } else {
      appendVary(res, 'Origin');
      if (origin !== undefined && origins.dashboard.has(origin)) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Access-Control-Allow-Credentials', 'true');
        res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      }
    }
  };
}

/**
 * Answers an OPTIONS request on a known path. Preflights never need authentication. A signup surface allows
 * only its exact origins, its own method and Content-Type, and refuses anything else with 403.
 */
export function preflightHandler(
  path: string,
  methods: readonly string[],
  origins: CorsOrigins,
  problemBase: string,
) {
  const allow = ['OPTIONS', ...methods.map((method) => method.toUpperCase())].join(', ');
  return (req: Request, res: Response): void => {
    const origin = originOf(req);
    const requestedMethod = req.headers['access-control-request-method'];
    if (origin === undefined || typeof requestedMethod !== 'string') {
      res.setHeader('Allow', allow);
      res.status(204).end();
      return;
    }
    const requestedHeaders = String(req.headers['access-control-request-headers'] ?? '')
      .split(',')
      .map((header) => header.trim().toLowerCase())
      .filter((header) => header.length > 0);
    if (SIGNUP_SURFACES.has(path)) {
      const method = requestedMethod.toUpperCase();
      const methodAllowed = methods.some((candidate) => candidate.toUpperCase() === method);
      const headersAllowed = requestedHeaders.every((header) => header === 'content-type');
      if (!origins.signup.has(origin) || !methodAllowed || !headersAllowed) {
        res.removeHeader('Access-Control-Allow-Origin');
        res.removeHeader('Access-Control-Allow-Credentials');
        sendProblem(res, problemBase, 'csrf_rejected', 'This origin, method or header is not allowed here.');
        return;
      }
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Allow-Methods', method);
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
      res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
      res.status(204).end();
      return;
    }
    if (origins.dashboard.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Allow-Methods', DASHBOARD_METHODS);
      res.setHeader('Access-Control-Allow-Headers', DASHBOARD_HEADERS);
      res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
    }
    res.status(204).end();
  };
}
