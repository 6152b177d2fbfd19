import { ColumnarQueryLog, type Settings } from '@svc/composition';
import {
  type AccountDeletionService,
  ApiTokenInvalidation,
  type ApiTokenService,
  type AuditLogService,
  type ClientErrorService,
  Clock,
  CountryLookup,
  type CursorSealer,
  type DataExportService,
  type DeviceService,
  type FeedbackService,
  type IdempotencyService,
  KeyedHash,
  type LinkedIpService,
  type ListPipelineService,
  type ListReportService,
  type LogQueryService,
  MailDispatcher,
  OutboxRelay,
  type PasskeyService,
  type PasswordService,
  type PreferencesService,
  type ProfileService,
  type SecondFactorService,
  type SessionService,
  type SignupService,
} from '@svc/domain';
import type { Express } from 'express';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { AccountErasureScheduler } from '../composition/account-erasure.scheduler.js';
import type { DataExportScheduler } from '../composition/data-export.scheduler.js';
import type { ListRefreshScheduler } from '../composition/list-refresh.scheduler.js';
import { resolveLogStreamRoutes } from '../composition/log-stream.bindings.js';
import { resolveOperatorRoutes } from '../composition/operator-routes.js';
import {
  AccountDeletionServiceToken,
  AccountErasureSchedulerToken,
  ApiTokenServiceToken,
  AuditLogServiceToken,
  ClientErrorServiceToken,
  CursorSealerToken,
  DataExportSchedulerToken,
  DataExportServiceToken,
  DeviceServiceToken,
  FeedbackServiceToken,
  IdempotencyServiceToken,
  LinkedIpServiceToken,
  ListPipelineServiceToken,
  ListRefreshSchedulerToken,
  ListReportServiceToken,
  LoggerToken,
  LogQueryServiceToken,
  PasskeyServiceToken,
  PasswordServiceToken,
  PreferencesServiceToken,
  ProfileServiceToken,
  SecondFactorServiceToken,
  SessionServiceToken,
  SettingsToken,
  SignupServiceToken,
} from '../composition/tokens.js';
import { dashboardSite } from '../dashboard/dashboard-site.js';
import { renderApiReference } from '../docs/api-reference.page.js';
import type { ProblemPageLinks } from '../docs/problem.page.js';
import { Authenticator } from '../http/principal.js';
import { ClientIpRateLimiter } from '../http/rate-limit.js';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import { accountDeletionRoutes } from '../routes/account-deletion.routes.js';
import { auditRoutes } from '../routes/audit.routes.js';
import { catalogueRoutes } from '../routes/catalogue.routes.js';
import { dataExportRoutes } from '../routes/data-export.routes.js';
import { deviceRoutes } from '../routes/device.routes.js';
import { feedbackRoutes } from '../routes/feedback.routes.js';
import { linkedIpRoutes } from '../routes/linked-ip.routes.js';
import { listReportRoutes } from '../routes/list-report.routes.js';
import { metaRoutes } from '../routes/meta.routes.js';
import { passkeyRoutes } from '../routes/passkey.routes.js';
import { passwordRoutes } from '../routes/password.routes.js';
import { preferencesRoutes } from '../routes/preferences.routes.js';
import { profileRoutes } from '../routes/profile.routes.js';
import { queryLogRoutes } from '../routes/query-log.routes.js';
import type { AnyRoute } from '../routes/route-definition.js';
import { secondFactorRoutes } from '../routes/second-factor.routes.js';
import { sessionRoutes } from '../routes/session.routes.js';
import { setupRoutes } from '../routes/setup.routes.js';
import { signupRoutes } from '../routes/signup.routes.js';
import { tokenRoutes } from '../routes/token.routes.js';
import { createExpressApp } from './create-app.js';
import { resolveNodeParts, type UpgradeHandler } from './node-parts.js';

/** Route tables added by an embedding caller, built from the container once it is ready. */
export type RouteContribution = (container: Container) => Promise<AnyRoute[]> | AnyRoute[];

/** The OpenAPI generator's module, loaded once on first use. */
const generator = () => import('../openapi/openapi-document.js');

/**
 * Where this server answers the problem `type` URIs: the path of the problem base when it is an address of this
 * server (the default `{base_url}/problems`); nowhere when it points at another site.
 */
function problemPagesOf(settings: Settings): { problemPages?: ProblemPageLinks & { path: string } } {
  const base = new URL(settings.baseUrl);
  const problems = new URL(settings.problemBase);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (problems.origin !== base.origin || !problems.pathname.startsWith(`${basePath}/`)) return {};
  const path = problems.pathname.slice(basePath.length).replace(/\/+$/, '');
  if (path === '' || path === '/v1' || path.startsWith('/v1/')) return {};
  return { problemPages: { path, problemBase: settings.problemBase, baseUrl: settings.baseUrl } };
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
 * Resolves what the routes need (opening the engines), gathers every route table, generates the OpenAPI
 * document from them, and builds the express application.
 */
export async function buildApp(
  container: Container,
  contributions: RouteContribution[] = [],
  options: { dashboardDir?: string } = {},
): Promise<BuiltApp> {
  const settings = container.get<Settings>(SettingsToken);
  const logger = container.get<Logger>(LoggerToken);
  const [keyedHash, idempotency, authenticator, columnar] = await Promise.all([
    container.getAsync<KeyedHash>(KeyedHash),
    container.getAsync<IdempotencyService>(IdempotencyServiceToken),
    container.getAsync<Authenticator>(Authenticator),
    container.getAsync<ColumnarQueryLog>(ColumnarQueryLog),
    container.getAsync<OutboxRelay>(OutboxRelay),
    container.getAsync<MailDispatcher>(MailDispatcher),
  ]);
  const [signup, sessions, passwords, tokens, profiles] = await Promise.all([
    container.getAsync<SignupService>(SignupServiceToken),
    container.getAsync<SessionService>(SessionServiceToken),
    container.getAsync<PasswordService>(PasswordServiceToken),
    container.getAsync<ApiTokenService>(ApiTokenServiceToken),
    container.getAsync<ProfileService>(ProfileServiceToken),
  ]);
  const tokenInvalidation = await container.getAsync<ApiTokenInvalidation>(ApiTokenInvalidation);
  const clock = await container.getAsync<Clock>(Clock);
  const secondFactors = await container.getAsync<SecondFactorService>(SecondFactorServiceToken);
  const passkeys = await container.getAsync<PasskeyService>(PasskeyServiceToken);

  const cursors = await container.getAsync<CursorSealer>(CursorSealerToken);
  const linkedIps = await container.getAsync<LinkedIpService>(LinkedIpServiceToken);
  const devices = await container.getAsync<DeviceService>(DeviceServiceToken);
  const logQueries = await container.getAsync<LogQueryService>(LogQueryServiceToken);
  const countries = await container.getAsync<CountryLookup>(CountryLookup);
  const listReports = await container.getAsync<ListReportService>(ListReportServiceToken);
  const preferences = await container.getAsync<PreferencesService>(PreferencesServiceToken);
  const auditLog = await container.getAsync<AuditLogService>(AuditLogServiceToken);
  const clientErrors = await container.getAsync<ClientErrorService>(ClientErrorServiceToken);
  const feedback = await container.getAsync<FeedbackService>(FeedbackServiceToken);
  const accountDeletion = await container.getAsync<AccountDeletionService>(AccountDeletionServiceToken);
  await container.getAsync<AccountErasureScheduler>(AccountErasureSchedulerToken);
  const dataExports = await container.getAsync<DataExportService>(DataExportServiceToken);
  await container.getAsync<DataExportScheduler>(DataExportSchedulerToken);
  const nodeParts = await resolveNodeParts(container, authenticator, settings.baseUrl);
  const listPipeline = await container.getAsync<ListPipelineService>(ListPipelineServiceToken);
  await container.getAsync<ListRefreshScheduler>(ListRefreshSchedulerToken);

  // The YAML form is written on the first GET /v1/openapi.yaml, not at start, where it would lengthen start-up.
  let yaml: Promise<string> | undefined;
  // Likewise the HTML reference of GET /docs.
  let apiReference: Promise<string> | undefined;
  /** Tokens revoked together in the database (deletion, first verification) stop on this server at once. */
  const forgetCachedTokens = (accountId: string) => tokenInvalidation.invalidateAccount(accountId);
  const routes: AnyRoute[] = [
    ...metaRoutes({
      settings,
      openApiYaml: () => {
        yaml ??= Promise.all([openApi(), generator()]).then(([document, { openApiYaml }]) =>
          openApiYaml(document),
        );
        return yaml;
      },
      columnarStore: columnar !== null,
      geoipAttribution: countries.attribution,
    }),
    ...catalogueRoutes(cursors, listPipeline),
    ...signupRoutes(signup, forgetCachedTokens),
    ...sessionRoutes(sessions, settings.secureCookies),
    ...accountDeletionRoutes(accountDeletion, sessions, settings.secureCookies, forgetCachedTokens),
    ...passwordRoutes(passwords, forgetCachedTokens),
    ...secondFactorRoutes(secondFactors, settings.secureCookies),
    ...passkeyRoutes(passkeys, settings.secureCookies),
    ...tokenRoutes(tokens),
    ...profileRoutes(profiles),
    ...linkedIpRoutes(linkedIps),
    ...deviceRoutes(devices),
    ...queryLogRoutes(logQueries),
    ...(await resolveLogStreamRoutes(container, authenticator)),
    ...listReportRoutes(listReports),
    ...setupRoutes(profiles, settings.baseUrl),
    ...preferencesRoutes(preferences),
    ...auditRoutes(auditLog),
    ...feedbackRoutes(clientErrors, feedback),
    ...(await resolveOperatorRoutes(container)),
    ...dataExportRoutes(dataExports),
    ...nodeParts.routes,
  ];
  for (const contribute of contributions) routes.push(...(await contribute(container)));
  // Built on first use too (GET /v1/openapi.yaml, /docs, callers of `openApi`): generating it from every
  // route's zod schemas costs start-up time and leaves megabytes of garbage behind an idle server's heap, and
  // the generator's module is memory an idle server does not need.
  let openApiDocument: Promise<OpenApiDocument> | undefined;
  const openApi = () => {
    openApiDocument ??= generator().then(({ buildOpenApiDocument }) =>
      buildOpenApiDocument(routes, settings.baseUrl),
    );
    return openApiDocument;
  };

  const origins = { dashboard: new Set(settings.dashboardOrigins), signup: new Set(settings.signupOrigins) };
  const dashboard =
    options.dashboardDir === undefined ? undefined : await dashboardSite(options.dashboardDir);
  const app = createExpressApp({
    routes,
    pipeline: {
      authenticator,
      idempotency,
      keyedHash,
      rateLimiter: new ClientIpRateLimiter(settings.rateLimitPerMinute),
      origins,
      requireStrongAdminSignIn: settings.env !== 'development',
      clock,
    },
    origins,
    problemBase: settings.problemBase,
    bodyLimitBytes: settings.bodyLimitBytes,
    hsts: settings.secureCookies,
    trustProxy: settings.trustProxy,
    logger,
    ...problemPagesOf(settings),
    ...(dashboard === undefined ? {} : { dashboard }),
    apiReferenceHtml: () => {
      apiReference ??= openApi().then(renderApiReference);
      return apiReference;
    },
  });
  return {
    app,
    routes,
    openApi,
    upgrade: nodeParts.upgrade,
    closeLinks: nodeParts.closeLinks,
  };
}
