import {
  CryptoRandom,
  HmacKeyedHash,
  loadOrCreateDevelopmentSecret,
  type StorageCallTracer,
  SystemClock,
} from '@svc/adapters';
import {
  Clock,
  CursorSealer,
  IdempotencyService,
  IdempotencyStore,
  KeyedHash,
  Random,
  SecretBox,
} from '@svc/domain';
import { Container, ContainerModule } from 'inversify';
import { type AdapterModuleOptions, adapterModules, type StorageKind } from '../adapter-modules.js';
import type { AdapterLog } from '../adapter-settings.js';
import { Lifecycle } from '../lifecycle.js';
import type { Settings } from '../settings/settings.js';
import { LifecycleToken } from '../tokens.js';
import { accountDeletionModule } from './account-deletion.module.js';
import { accountFeedbackModule } from './account-feedback.module.js';
import { dataExportsModule } from './data-export.module.js';
import { devicesModule } from './device.module.js';
import { edgeSimulationModule } from './edge-simulation.module.js';
import { identityModule } from './identity.module.js';
import { linkedIpsModule } from './linked-ip.module.js';
import { listPipelineModule } from './list-pipeline.module.js';
import { listReportsModule } from './list-report.module.js';
import { nodesModule } from './node.module.js';
import { operatorModule } from './operator.module.js';
import { profilesModule } from './profile.module.js';
import { queryLogsModule } from './query-log.module.js';
import { standaloneHostModule } from './standalone-host.module.js';
import { CursorSealerToken, IdempotencyServiceToken } from './use-case.tokens.js';
import { webhooksModule } from './webhook.module.js';

/** Idempotency of POSTs and the sealer of pagination cursors, which several contexts share. */
function sharedModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<IdempotencyService>(IdempotencyServiceToken).toResolvedValue(
      (store: IdempotencyStore, clock: Clock, box: SecretBox) => new IdempotencyService(store, clock, box),
      [IdempotencyStore, Clock, SecretBox],
    );
    bind<CursorSealer>(CursorSealerToken).toResolvedValue(
      (hash: KeyedHash) => new CursorSealer(hash),
      [KeyedHash],
    );
  });
}

/**
 * The use cases: the domain's services wired to the ports the adapter families and the host bound, one module
 * per context.
 */
export function useCaseModules(settings: Settings): ContainerModule[] {
  return [
    sharedModule(),
    identityModule(settings),
    profilesModule(settings),
    linkedIpsModule(settings),
    devicesModule(),
    nodesModule(settings),
    queryLogsModule(settings),
    edgeSimulationModule(),
    listPipelineModule(settings),
    listReportsModule(),
    accountFeedbackModule(),
    accountDeletionModule(settings.accounts, settings.dashboard),
    operatorModule(),
    dataExportsModule(settings.http),
    webhooksModule(settings.outbound),
  ];
}

/** Options of {@link composeContainer}. */
export interface ComposeOptions {
  settings: Settings;
  storage: StorageKind;
  /** Lines of the adapter families (mail written to the outbox folder, retries). */
  log: AdapterLog;
  tracer: StorageCallTracer;
  /** Replace the clock (tests, simulations). */
  clock?: Clock;
  /**
   * Bindings of the process hosting the use cases (the HTTP server's token cache and node links): the API token
   * service, the nodes' presence and the log query relay. Without, {@link standaloneHostModule}'s.
   */
  host?: ContainerModule[];
}

/**
 * The one composition of svc, for `svc serve` and the CLI's storage commands alike: the clock, randomness and
 * keyed hashing, the adapter families the settings choose, the host's bindings, then the use cases. Async
 * factories open engines lazily; the {@link Lifecycle} (LifecycleToken) closes them in reverse.
 */
export function composeContainer(options: ComposeOptions): Container {
  const { settings, log, tracer } = options;
  const container = new Container({ defaultScope: 'Singleton' });
  const lifecycle = new Lifecycle();
  container.bind<Lifecycle>(LifecycleToken).toConstantValue(lifecycle);
  container.bind<Clock>(Clock).toConstantValue(options.clock ?? new SystemClock());
  container.bind<Random>(Random).toConstantValue(new CryptoRandom());
  container
    .bind<KeyedHash>(KeyedHash)
    .toResolvedValue(
      async () =>
        new HmacKeyedHash(
          settings.keys.secret ?? (await loadOrCreateDevelopmentSecret(settings.storage.dataDir)),
        ),
    );
  const adapterOptions: AdapterModuleOptions = { lifecycle, log, tracer };
  container.load(...adapterModules(settings, options.storage, adapterOptions));
  container.load(...(options.host ?? [standaloneHostModule()]));
  container.load(...useCaseModules(settings));
  return container;
}
