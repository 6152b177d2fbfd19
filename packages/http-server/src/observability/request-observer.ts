import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { ServerMetrics } from './server-metrics.js';
import { endRequestSpan, runInContext, startRequestSpan } from './tracing.js';

/** The route label of requests no route matched: raw paths would put ids and garbage into label values. */
const UNMATCHED_ROUTE = 'unmatched';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Express paths back to the spec's templates (`/v1/profiles/:id` → `/v1/profiles/{id}`), computed once each. */
const templates = new Map<string, string>();

function templateOf(expressPath: string): string {
  let template = templates.get(expressPath);
  if (template === undefined) {
    template = expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    templates.set(expressPath, template);
  }
  return template;
}

/** The template of the route express matched; express leaves it on the request once dispatched. */
function routeOf(req: IncomingMessage): string {
  const route = 'route' in req ? req.route : undefined;
  if (typeof route === 'object' && route !== null && 'path' in route && typeof route.path === 'string')
    return templateOf(route.path);
  return UNMATCHED_ROUTE;
}

/** The facts the API's first middleware keeps on `res.locals` (see request-locals.ts), read defensively. */
function localsOf(res: ServerResponse): { requestId?: string; principal?: string; orgId?: string } {
  const locals = 'locals' in res ? res.locals : undefined;
  if (typeof locals !== 'object' || locals === null) return {};
  const facts: { requestId?: string; principal?: string; orgId?: string } = {};
  if ('requestId' in locals && typeof locals.requestId === 'string') facts.requestId = locals.requestId;
  const principal = 'principal' in locals ? locals.principal : undefined;
  if (typeof principal === 'object' && principal !== null) {
    if ('kind' in principal && typeof principal.kind === 'string') facts.principal = principal.kind;
    if ('orgId' in principal && typeof principal.orgId === 'string') facts.orgId = principal.orgId;
  }
  return facts;
}

/** Observes one request while `handle` (the API) answers it. */
export type RequestObserver = (req: IncomingMessage, res: ServerResponse, handle: () => void) => void;

/**
 * Counts and times every API request by route template and status, writes one `request` log line at info
 * with the request id, and runs the request inside an OpenTelemetry server span (a no-op without an SDK).
 * The line names the route template, never the raw path or query (which can carry single-use tokens), and no
 * header (cookies, credentials). The per-request cost is two clock reads, one listener, a no-op span and one
 * series update; the log object is built only when info is enabled.
 */
export function requestObserver(metrics: ServerMetrics, logger: Logger): RequestObserver {
  return (req, res, handle) => {
    const started = performance.now();
    const method = req.method !== undefined && KNOWN_METHODS.has(req.method) ? req.method : 'OTHER';
    const tracing = startRequestSpan(method, req.headers);
    res.on('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const route = routeOf(req);
      // A client that went away before the answer was complete is counted with status 499, as nginx does.
      const status = res.writableFinished ? res.statusCode : 499;
      metrics.observeRequest(method, route, status, seconds);
      const facts = localsOf(res);
      endRequestSpan(tracing.span, { method, route, status, requestId: facts.requestId });
      if (!logger.isLevelEnabled('info')) return;
      logger.info(
        {
          request_id: facts.requestId,
          method,
          route,
          status,
          duration_ms: Math.round(seconds * 10_000) / 10,
          principal: facts.principal ?? 'anonymous',
          ...(facts.orgId === undefined ? {} : { org_id: facts.orgId }),
        },
        'request',
      );
    });
    runInContext(tracing.context, handle);
  };
}
