import { CryptoRandom, HmacKeyedHash, loadOrCreateDevelopmentSecret, SystemClock } from '@svc/adapters';
import { adapterModules, Lifecycle, LifecycleToken, type StorageKind } from '@svc/composition';
import {
  Clock,
  CursorSealer,
  IdempotencyService,
  IdempotencyStore,
  KeyedHash,
  Random,
  SecretBox,
} from '@svc/domain';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import { PromServerMetrics, ServerMetrics } from '../observability/server-metrics.js';
import { traced } from '../observability/tracing.js';
import type { Settings } from '../settings/settings.js';
import { bindAccountDeletion } from './account-deletion.bindings.js';
import { bindAccountFeedback } from './account-feedback.bindings.js';
import { bindDataExports } from './data-export.bindings.js';
import { bindDevices } from './device.bindings.js';
import { bindEdgeSimulation } from './edge-simulation.bindings.js';
import { bindIdentity } from './identity.bindings.js';
import { bindLinkedIps } from './linked-ip.bindings.js';
import { bindListPipeline } from './list-pipeline.bindings.js';
import { bindListReports } from './list-report.bindings.js';
import { bindNodes } from './node.bindings.js';
import { bindOperator } from './operator.bindings.js';
import { bindProfiles } from './profile.bindings.js';
import { bindQueryLogs } from './query-log.bindings.js';
import { CursorSealerToken, IdempotencyServiceToken, LoggerToken, SettingsToken } from './tokens.js';

/** Options of the composition root. */
export interface ContainerOptions {
  settings: Settings;
  logger: Logger;
  storage: StorageKind;
  /** Replace the clock (tests, simulations). */
  clock?: Clock;
}

/**
 * The one composition root: binds every port to the adapter the settings choose, with factories, so that the
 * domain carries no decorators. Async factories open engines lazily; the lifecycle closes them in reverse.
 */
export function createContainer(options: ContainerOptions): Container {
  const { settings, logger } = options;
  const container = new Container({ defaultScope: 'Singleton' });
  const lifecycle = new Lifecycle();
  container.bind<Settings>(SettingsToken).toConstantValue(settings);
  container.bind<Logger>(LoggerToken).toConstantValue(logger);
  container.bind<Lifecycle>(LifecycleToken).toConstantValue(lifecycle);
  container.bind<Clock>(Clock).toConstantValue(options.clock ?? new SystemClock());
  container.bind<Random>(Random).toConstantValue(new CryptoRandom());
  container.bind<ServerMetrics>(ServerMetrics).toConstantValue(new PromServerMetrics());
  container
    .bind<KeyedHash>(KeyedHash)
    .toResolvedValue(
      async () =>
        new HmacKeyedHash(settings.secret ?? (await loadOrCreateDevelopmentSecret(settings.dataDir))),
    );

  container.load(
    ...adapterModules(settings, options.storage, {
      lifecycle,
      log: { info: (line) => logger.info(line), warn: (line) => logger.warn(line) },
      tracer: traced,
    }),
  );

  container
    .bind<IdempotencyService>(IdempotencyServiceToken)
    .toResolvedValue(
      (store: IdempotencyStore, clock: Clock, box: SecretBox) => new IdempotencyService(store, clock, box),
      [IdempotencyStore, Clock, SecretBox],
    );
  container
    .bind<CursorSealer>(CursorSealerToken)
    .toResolvedValue((hash: KeyedHash) => new CursorSealer(hash), [KeyedHash]);
  bindIdentity(container, settings);
  bindProfiles(container, settings);
  bindLinkedIps(container, settings);
  bindDevices(container);
  // Before the query logs: they bind an always-offline relay unless the node link bound its own.
  bindNodes(container, settings, options.storage);
  bindQueryLogs(container, settings);
  bindEdgeSimulation(container);
  bindListPipeline(container, settings);
  bindListReports(container);
  bindAccountFeedback(container);
  bindAccountDeletion(container);
  bindOperator(container);
  bindDataExports(container, settings);
  return container;
}
