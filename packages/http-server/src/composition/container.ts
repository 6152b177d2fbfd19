import { composeContainer, type Settings, type StorageKind } from '@svc/composition';
import type { Clock } from '@svc/domain';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { PromServerMetrics, ServerMetrics } from '../observability/server-metrics.js';
import { traced } from '../observability/tracing.js';
import type { RouteTable } from '../routes/route-table.js';
import { authenticationModule } from './authentication.bindings.js';
import { nodeLinksModule } from './node-links.bindings.js';
import { routeTablesModule } from './route-tables.bindings.js';
import type { ServerJob } from './server-job.js';
import { serverJobsModule } from './server-jobs.bindings.js';
import { LoggerToken, SettingsToken } from './tokens.js';

/** Options of the server's container. */
export interface ContainerOptions {
  settings: Settings;
  logger: Logger;
  storage: StorageKind;
  /** Replace the clock (tests, simulations). */
  clock?: Clock;
}

/**
 * The API server's container: the composition of `@svc/composition` (adapter families and use cases, as the
 * CLI's storage commands get it) with what serving HTTP adds: the token cache and the authenticator, the nodes'
 * links, the background jobs ({@link ServerJob}), the route tables ({@link RouteTable}), the settings, the logger
 * and the metrics.
 */
export function createContainer(options: ContainerOptions): Container {
  const { settings, logger } = options;
  const container = composeContainer({
    settings,
    storage: options.storage,
    log: { info: (line) => logger.info(line), warn: (line) => logger.warn(line) },
    tracer: traced,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    host: [authenticationModule(settings.http), nodeLinksModule(settings)],
  });
  container.bind<Settings>(SettingsToken).toConstantValue(settings);
  container.bind<Logger>(LoggerToken).toConstantValue(logger);
  container.bind<ServerMetrics>(ServerMetrics).toConstantValue(new PromServerMetrics());
  container.load(serverJobsModule(settings.lists), routeTablesModule(settings));
  return container;
}
