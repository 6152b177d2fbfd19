// The composition the server is built on (adapter families, use cases, settings, the control socket), as
// embedders and tests knew it from here.
export {
  type AppliedMigrations,
  type ControlAnswer,
  type ControlCommand,
  controlSocketPath,
  type DashboardConfiguration,
  DataDirInUseError,
  DEFAULT_DATA_DIR,
  dashboardSettings,
  holdsEmbeddedEngines,
  Lifecycle,
  migrateStores,
  parseSettings,
  RawSettings,
  type SettingDoc,
  type Settings,
  SettingsError,
  type StorageKind,
  sendControlCommand,
  settingDocs,
  settingsForBoundUrl,
  startControlSocket,
} from '@svc/composition';
export * from './app/build-app.js';
export * from './app/create-app.js';
export * from './composition/account-erasure.scheduler.js';
export * from './composition/container.js';
export * from './composition/data-export.scheduler.js';
export * from './composition/node-alert.scheduler.js';
export * from './composition/node-log-hold.scheduler.js';
export * from './composition/operator-expiry.scheduler.js';
export * from './composition/server-job.js';
export * from './composition/tokens.js';
export * from './composition/webhook-delivery.scheduler.js';
export * from './dashboard/dashboard-site.js';
export { API_TOKEN_CACHE_TTL_MS } from './http/caching-api-token.service.js';
export * from './http/deprecation.js';
export * from './http/etag.js';
export * from './http/principal.js';
export { NodeLinkHub } from './links/node-link-hub.js';
export * from './observability/operational-endpoints.js';
export * from './observability/readiness.js';
export * from './observability/server-metrics.js';
export { traced } from './observability/tracing.js';
// Types only: the generator loads with the first request for the document, not at start.
export type { OpenApiDocument } from './openapi/openapi-document.js';
export * from './problems/problem-document.js';
export * from './problems/problem-status.js';
export * from './routes/route-definition.js';
export * from './routes/route-table.js';
export * from './server/express-prototypes.js';
export * from './server/start-server.js';
export * from './settings/settings-reference.js';
export * from './testing/create-test-app.js';
