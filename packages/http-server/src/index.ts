// The adapter families' composition, which the server is built on, as embedders and tests knew it from here.
export { type AppliedMigrations, Lifecycle, migrateStores, type StorageKind } from '@svc/composition';
export * from './app/build-app.js';
export * from './app/create-app.js';
export * from './composition/container.js';
export * from './composition/edge-simulation.bindings.js';
export * from './composition/tokens.js';
export * from './dashboard/dashboard-site.js';
export * from './http/deprecation.js';
export * from './http/etag.js';
export * from './http/principal.js';
export * from './observability/operational-endpoints.js';
export * from './observability/readiness.js';
export * from './observability/server-metrics.js';
export { traced } from './observability/tracing.js';
// Types only: the generator loads with the first request for the document, not at start.
export type { OpenApiDocument } from './openapi/openapi-document.js';
export * from './problems/problem-document.js';
export * from './problems/problem-status.js';
export * from './routes/route-definition.js';
export * from './server/control-socket.js';
export * from './server/express-prototypes.js';
export * from './server/start-server.js';
export * from './settings/setting-docs.js';
export * from './settings/settings.js';
export * from './settings/settings-reference.js';
export * from './testing/create-test-app.js';
