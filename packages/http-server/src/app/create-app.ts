import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { DashboardSite } from '../dashboard/dashboard-site.js';
import { API_REFERENCE_CSP } from '../docs/api-reference.page.js';
import {
  isProblemCode,
  PROBLEM_PAGE_CSP,
  type ProblemPageLinks,
  renderProblemIndex,
  renderProblemPage,
} from '../docs/problem.page.js';
import { type CorsOrigins, corsHeaders, preflightHandler } from '../http/cors.js';
import { localsOf } from '../http/request-locals.js';
import { responseHeaders } from '../http/response-headers.middleware.js';
import { type PipelineDependencies, routePipeline } from '../http/route-pipeline.js';
import { sendProblem, writeProblem } from '../http/send-problem.js';
import { problemFromError } from '../problems/problem-document.js';
import type { AnyRoute } from '../routes/route-definition.js';

/** Everything the express application is built from. */
export interface AppOptions {
  routes: readonly AnyRoute[];
  pipeline: PipelineDependencies;
  origins: CorsOrigins;
  problemBase: string;
  bodyLimitBytes: number;
  hsts: boolean;
  /** Express `trust proxy`; undefined trusts no proxy. */
  trustProxy: string | undefined;
  logger: Logger;
  /** The HTML API reference served at GET /docs, outside /v1 and the OpenAPI document; written on first use. */
  apiReferenceHtml?: () => Promise<string>;
  /**
   * Serves the human page of every problem `type` URI at `path` (`/problems`), when the problem base is this
   * server's own address; a problem base elsewhere is the deployment's to serve.
   */
  problemPages?: ProblemPageLinks & { path: string };
  /** The built dashboard, answered at `/` and the app's page paths after every API route (svc serve). */
  dashboard?: DashboardSite;
}

function expressPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/** The first two segments of a path, lower-cased (routing ignores case): the bucket of routes it can match. */
function bucketOf(path: string): string {
  return path.toLowerCase().split('/', 3).join('/');
}

function trustProxyValue(setting: string | undefined): boolean | number | string {
  if (setting === undefined || setting === 'false') return false;
  if (setting === 'true') return true;
  return /^\d+$/.test(setting) ? Number(setting) : setting;
}

/**
 * The express application: common headers first, then CORS, body parsing, one route table, 405 for known
 * paths with another method, 404 for the rest, and the one problem mapper last.
 */
export function createExpressApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  const trustProxy = trustProxyValue(options.trustProxy);
  app.set('trust proxy', trustProxy);
  app.set('query parser', 'simple');

  // One first layer instead of three (each layer is a router step on every request): the common headers,
  // CORS, then the JSON body parser only when the request has a body, which is when it would parse anything.
  const commonHeaders = responseHeaders({ hsts: options.hsts, trustsProxy: trustProxy !== false });
  const cors = corsHeaders(options.origins);
  const parseJson = express.json({
    limit: options.bodyLimitBytes,
    type: ['application/json', 'application/*+json'],
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    commonHeaders(req, res);
    cors(req, res);
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) next();
    else parseJson(req, res, next);
  });

  const apiReferenceHtml = options.apiReferenceHtml;
  if (apiReferenceHtml !== undefined) {
    // A document to render, unlike every API answer: the page's own policy allows its inline style sheet.
    app.get('/docs', async (_req: Request, res: Response) => {
      const html = await apiReferenceHtml();
      res.setHeader('Content-Security-Policy', API_REFERENCE_CSP);
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(html);
    });
  }

  const problemPages = options.problemPages;
  if (problemPages !== undefined) {
    const sendPage = (res: Response, html: string) => {
      res.setHeader('Content-Security-Policy', PROBLEM_PAGE_CSP);
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.type('html').send(html);
    };
    app.get(problemPages.path, (_req: Request, res: Response) =>
      sendPage(res, renderProblemIndex(problemPages)),
    );
    app.get(`${problemPages.path}/:code`, (req: Request, res: Response, next: NextFunction) => {
      const code = req.params.code;
      if (typeof code !== 'string' || !isProblemCode(code)) next();
      else sendPage(res, renderProblemPage(code, problemPages));
    });
  }

  // Routes go into one express router per bucket (bucketOf), and one layer hands a request to its bucket's:
  // express tries a request against every layer in turn, so with all routes in one table a route registered
  // late paid for testing every route before it (docs/adr/0006-http-pipeline.md). Within a
  // bucket the order is the table's: its routes, then for each of its paths the preflight and the 405. Routes
  // without a bucket (none so far) are tried after, in a router of their own.
  const buckets = new Map<string, express.Router>();
  const unbucketed = express.Router();
  const routerOf = (path: string): express.Router => {
    const bucket = bucketOf(path);
    // A parameter among the first two segments could match any bucket.
    if (bucket.includes('{')) return unbucketed;
    let router = buckets.get(bucket);
    if (router === undefined) {
      router = express.Router();
      buckets.set(bucket, router);
    }
    return router;
  };
  const methodsByPath = new Map<string, string[]>();
  for (const route of options.routes) {
    const methods = methodsByPath.get(route.path) ?? [];
    methods.push(route.method);
    methodsByPath.set(route.path, methods);
    routerOf(route.path)[route.method](expressPath(route.path), routePipeline(route, options.pipeline));
  }
  for (const [path, methods] of methodsByPath) {
    const router = routerOf(path);
    router.options(expressPath(path), preflightHandler(path, methods, options.origins, options.problemBase));
    const allow = ['OPTIONS', ...methods.map((method) => method.toUpperCase())].join(', ');
    router.all(expressPath(path), (_req: Request, res: Response) => {
      sendProblem(res, options.problemBase, 'method_not_allowed', 'This path does not take that method.', {
        headers: { Allow: allow },
      });
    });
  }
  app.use((req: Request, res: Response, next: NextFunction) => {
    const router = buckets.get(bucketOf(req.path));
    if (router === undefined) next();
    else router(req, res, next);
  });
  app.use(unbucketed);
  if (options.dashboard !== undefined) app.use(options.dashboard);
  app.use((_req: Request, res: Response) => {
    sendProblem(res, options.problemBase, 'not_found', 'No route matches this path.');
  });
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const requestId = localsOf(res).requestId;
    const problem = problemFromError(error, { requestId, problemBase: options.problemBase });
    // A dependency out of reach is `internal` with 503 (problem-document.ts); the domain's own 503 codes are not.
    if (problem.body.code === 'internal' && problem.status === 503)
      options.logger.warn({ err: error, requestId }, 'request failed: a dependency is unavailable');
    else if (problem.body.code === 'internal')
      options.logger.error({ err: error, requestId }, 'request failed');
    writeProblem(res, problem);
  });
  return app;
}
