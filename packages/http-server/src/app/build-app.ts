import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Settings } from '@svc/composition';
import { Clock, type IdempotencyService, KeyedHash } from '@svc/domain';
import type { Express } from 'express';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import {
  IdempotencyServiceToken,
  LoggerToken,
  NodeLinkHubToken,
  SettingsToken,
} from '../composition/tokens.js';
import { dashboardSite } from '../dashboard/dashboard-site.js';
import type { ProblemPageLinks } from '../docs/problem.page.js';
import { Authenticator } from '../http/principal.js';
import { ClientIpRateLimiter } from '../http/rate-limit.js';
import type { NodeLinkHub } from '../links/node-link-hub.js';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import type { AnyRoute } from '../routes/route-definition.js';
import { RouteTable } from '../routes/route-table.js';
import { ApiDescription } from './api-description.js';
import { createExpressApp } from './create-app.js';

/** Route tables added by an embedding caller, built from the container once it is ready. */
export type RouteContribution = (container: Container) => Promise<AnyRoute[]> | AnyRoute[];

/** Handles an HTTP upgrade request of the server (the node link is the only WebSocket). */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Where this server answers the problem `type` URIs: the path of the problem base when it is an address of this
 * server (the default `{base_url}/problems`); nowhere when it points at another site.
 */
function problemPagesOf(settings: Settings): { problemPages?: ProblemPageLinks & { path: string } } {
  const base = new URL(settings.http.baseUrl);
  const problems = new URL(settings.http.problemBase);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (problems.origin !== base.origin || !problems.pathname.startsWith(`${basePath}/`)) return {};
  const path = problems.pathname.slice(basePath.length).replace(/\/+$/, '');
  if (path === '' || path === '/v1' || path.startsWith('/v1/')) return {};
  return { problemPages: { path, problemBase: settings.http.problemBase, baseUrl: settings.http.baseUrl } };
}

/** The built application and its OpenAPI document. */
export interface BuiltApp {
  app: Express;
  routes: readonly AnyRoute[];
  /** The OpenAPI document, built (and its generator loaded) on the first call. */
  openApi(): Promise<OpenApiDocument>;
  /** The server's upgrade requests: the WebSocket links of self-hosted nodes. */
  upgrade: UpgradeHandler;
  /** Closes the node links (at shutdown, before waiting for connections to end). */
  closeLinks(): Promise<void>;
}

/**
 * Gathers every route table contributed to the container (resolving them opens the engines they need) and
 * the embedder's, hands them to the API description, and builds the express application over them.
 */
export async function buildApp(
  container: Container,
  contributions: RouteContribution[] = [],
  options: { dashboardDir?: string } = {},
): Promise<BuiltApp> {
  const settings = container.get<Settings>(SettingsToken);
  const logger = container.get<Logger>(LoggerToken);
  const [tables, keyedHash, idempotency, authenticator, clock, hub, description] = await Promise.all([
    container.getAllAsync<RouteTable>(RouteTable),
    container.getAsync<KeyedHash>(KeyedHash),
    container.getAsync<IdempotencyService>(IdempotencyServiceToken),
    container.getAsync<Authenticator>(Authenticator),
    container.getAsync<Clock>(Clock),
    container.getAsync<NodeLinkHub>(NodeLinkHubToken),
    container.getAsync<ApiDescription>(ApiDescription),
  ]);
  const routes: AnyRoute[] = tables.flat();
  for (const contribute of contributions) routes.push(...(await contribute(container)));
  description.describe(routes);

  const origins = {
    dashboard: new Set(settings.dashboard.origins),
    signup: new Set(settings.dashboard.signupOrigins),
  };
  const dashboard =
    options.dashboardDir === undefined ? undefined : await dashboardSite(options.dashboardDir);
  const app = createExpressApp({
    routes,
    pipeline: {
      authenticator,
      idempotency,
      keyedHash,
      rateLimiter: new ClientIpRateLimiter(settings.http.rateLimitPerMinute),
      origins,
      requireStrongAdminSignIn: settings.env !== 'development',
      clock,
    },
    origins,
    problemBase: settings.http.problemBase,
    bodyLimitBytes: settings.http.bodyLimitBytes,
    hsts: settings.http.secureCookies,
    trustProxy: settings.http.trustProxy,
    logger,
    ...problemPagesOf(settings),
    ...(dashboard === undefined ? {} : { dashboard }),
    apiReferenceHtml: () => description.referenceHtml(),
  });
  return {
    app,
    routes,
    openApi: () => description.openApi(),
    upgrade: (req, socket, head) => hub.upgrade(authenticator, req, socket, head),
    closeLinks: () => hub.close(),
  };
}
