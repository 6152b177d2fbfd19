import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_VERSION } from '@svc/domain';
import { CONTENT_SECURITY_POLICY } from '../http/response-headers.middleware.js';
import { problemFor } from '../problems/problem-document.js';
import type { Readiness } from './readiness.js';
import type { ServerMetrics } from './server-metrics.js';

/** The paths answered outside /v1, before the API's pipeline (no rate limit, no credential, no OpenAPI entry). */
const OPERATIONAL_PATHS = { liveness: '/livez', readiness: '/readyz', metrics: '/metrics' } as const;

/** What the operational endpoints answer from. */
export interface OperationalEndpointOptions {
  readiness: Readiness;
  metrics: ServerMetrics;
  /** When set, `/metrics` needs `Authorization: Bearer <token>` (SVC_METRICS_TOKEN). */
  metricsToken: string | undefined;
  /** False leaves `/metrics` to the API, which answers 404 (SVC_METRICS_ENABLED=false). */
  metricsEnabled: boolean;
  problemBase: () => string;
}

/** Answers an operational request; returns false for every other request, which goes on to the API. */
export type OperationalEndpoints = (req: IncomingMessage, res: ServerResponse) => boolean;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Compares digests, so neither the token's length nor a matching prefix shows in the time taken. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

/** The headers every response carries (spec 4.1.2 and 5.6), and no caching of a probe's answer. */
function answer(
  res: ServerResponse,
  requestId: string,
  status: number,
  contentType: string,
  body: string,
  head: boolean,
): void {
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
    'X-Svc-Api-Version': API_VERSION,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(head ? undefined : body);
}

/**
 * Liveness, readiness and metrics, on the API's port but outside /v1. They are answered before the express
 * application, so they need no credential, are never rate limited, never appear in the OpenAPI document,
 * and answer while the server is still starting: liveness only says the event loop turns, readiness says
 * whether to send traffic (see {@link Readiness}).
 */
export function operationalEndpoints(options: OperationalEndpointOptions): OperationalEndpoints {
  const expectedToken = options.metricsToken === undefined ? undefined : digest(options.metricsToken);
  return (req, res) => {
    // API requests leave at the first test: this runs before every request.
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.url?.startsWith('/v1/') === true) return false;
    const path = pathOf(req.url);
    if (
      path !== OPERATIONAL_PATHS.liveness &&
      path !== OPERATIONAL_PATHS.readiness &&
      (path !== OPERATIONAL_PATHS.metrics || !options.metricsEnabled)
    )
      return false;
    const head = req.method === 'HEAD';
    const requestId = randomUUID();
    if (path === OPERATIONAL_PATHS.liveness) {
      answer(res, requestId, 200, 'application/json; charset=utf-8', '{"status":"live"}', head);
      return true;
    }
    if (path === OPERATIONAL_PATHS.readiness) {
      void options.readiness.report().then(
        (report) => {
          const status = report.status === 'ready' ? 200 : 503;
          answer(res, requestId, status, 'application/json; charset=utf-8', JSON.stringify(report), head);
        },
        () => answer(res, requestId, 503, 'application/json; charset=utf-8', '{"status":"not_ready"}', head),
      );
      return true;
    }
    if (expectedToken !== undefined && !bearerMatches(req.headers.authorization, expectedToken)) {
      const problem = problemFor('unauthenticated', 'The metrics need the metrics bearer token.', {
        requestId,
        problemBase: options.problemBase(),
      });
      res.setHeader('WWW-Authenticate', 'Bearer');
      answer(res, requestId, 401, 'application/problem+json', JSON.stringify(problem.body), head);
      return true;
    }
    void options.metrics.exposition().then(
      (exposition) => answer(res, requestId, 200, exposition.contentType, exposition.body, head),
      () => answer(res, requestId, 503, 'text/plain; charset=utf-8', 'metrics unavailable\n', head),
    );
    return true;
  };
}
