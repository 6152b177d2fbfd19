import {
  CryptoRandom,
  createColumnarStore,
  createMailer,
  createMessageBus,
  createPostgresDatabase,
  HmacKeyedHash,
  InProcessMessageBus,
  LazyColumnarStore,
  loadOrCreateDevelopmentSecret,
  MemoryIdempotencyStore,
  MemoryMailDispatcher,
  MemoryMailer,
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
  migrateEmbeddedColumnarStore,
  migratePostgres,
  PostgresAuditLogStore,
  PostgresDeviceRepository,
  PostgresIdempotencyStore,
  PostgresLinkedIpRepository,
  PostgresListReportRepository,
  PostgresMailDispatcher,
  PostgresNodeLogBatchLedger,
  PostgresNodeLogHoldStore,
  PostgresNodeRepository,
  PostgresNodeTotalsLedger,
  PostgresOutboxRelay,
  PostgresProfileCommitter,
  PostgresProfileStore,
  PostgresUnitOfWork,
  postgresIdentityRepositories,
  postgresTransactionRepositories,
  SystemClock,
} from '@svc/adapters';
import {
  AuditLogStore,
  Clock,
  ColumnarStore,
  CursorSealer,
  DeviceStore,
  IdempotencyService,
  IdempotencyStore,
  IdentityStore,
  KeyedHash,
  LinkedIpStore,
  ListReportStore,
  MailDispatcher,
  Mailer,
  MessageBus,
  NodeLogBatchLedger,
  NodeLogHoldStore,
  NodeStore,
  NodeTotalsLedger,
  OutboxRelay,
  ProfileCommitter,
  ProfileStore,
  Random,
  SecretBox,
  UnitOfWork,
  UnitOfWorkProfileCommitter,
} from '@svc/domain';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import { PromServerMetrics, ServerMetrics } from '../observability/server-metrics.js';
import { traced } from '../observability/tracing.js';
import { isDependencyUnavailable } from '../problems/dependency-unavailable.js';
import type { Settings } from '../settings/settings.js';
import { bindAccountDeletion } from './account-deletion.bindings.js';
import { bindAccountFeedback } from './account-feedback.bindings.js';
import { bindDataExports } from './data-export.bindings.js';
import { bindDevices } from './device.bindings.js';
import { bindEdgeSimulation } from './edge-simulation.bindings.js';
import { bindIdentity } from './identity.bindings.js';
import { Lifecycle } from './lifecycle.js';
import { bindLinkedIps } from './linked-ip.bindings.js';
import { bindListPipeline } from './list-pipeline.bindings.js';
import { bindListReports } from './list-report.bindings.js';
import { bindNodes } from './node.bindings.js';
import { bindOperator } from './operator.bindings.js';
import { bindProfiles } from './profile.bindings.js';
import { bindQueryLogs } from './query-log.bindings.js';
import {
  CursorSealerToken,
  IdempotencyServiceToken,
  LifecycleToken,
  LoggerToken,
  SettingsToken,
} from './tokens.js';

/** Which family of adapters backs the stores: real engines (embedded or servers) or memory. */
export type StorageKind = 'engines' | 'memory';

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

  if (options.storage === 'memory') bindMemoryStores(container, lifecycle);
  else bindEngineStores(container, settings, logger, lifecycle);

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
  bindEdgeSimulation(container, PostgresToken);
  bindListPipeline(container, settings, options.storage, PostgresToken);
  bindListReports(container);
  bindAccountFeedback(container);
  bindAccountDeletion(container);
  bindOperator(container);
  bindDataExports(container, settings);
  return container;
}

function bindMemoryStores(container: Container, lifecycle: Lifecycle): void {
  const stores = new MemoryStores();
  const mailer = new MemoryMailer();
  container.bind<MessageBus>(MessageBus).toConstantValue(new InProcessMessageBus());
  container.bind<Mailer>(Mailer).toConstantValue(mailer);
  container.bind<IdempotencyStore>(IdempotencyStore).toConstantValue(new MemoryIdempotencyStore());
  container.bind<IdentityStore>(IdentityStore).toConstantValue(stores.identity.repositories());
  container.bind<ProfileStore>(ProfileStore).toConstantValue(stores.profiles.repository());
  container.bind<LinkedIpStore>(LinkedIpStore).toConstantValue(stores.linkedIps.repository());
  container.bind<NodeStore>(NodeStore).toConstantValue(stores.nodes.repository());
  container.bind<DeviceStore>(DeviceStore).toConstantValue(stores.devices.repository());
  container.bind<ListReportStore>(ListReportStore).toConstantValue(stores.listReports.repository());
  container.bind<AuditLogStore>(AuditLogStore).toConstantValue(stores.auditLog);
  container.bind<MailDispatcher>(MailDispatcher).toResolvedValue(() => {
    const dispatcher = new MemoryMailDispatcher(stores.mailQueue, mailer);
    dispatcher.start();
    return lifecycle.own('mail dispatcher', dispatcher, (owned) => owned.stop());
  });
  container.bind<MemoryOutboxRelay>(OutboxRelay).toResolvedValue(
    (bus: MessageBus) => {
      const relay = new MemoryOutboxRelay(bus);
      relay.start();
      return lifecycle.own('outbox relay', relay, (owned) => owned.stop());
    },
    [MessageBus],
  );
  container.bind<UnitOfWork>(UnitOfWork).toResolvedValue(
    (relay: MemoryOutboxRelay, dispatcher: MailDispatcher) =>
      new MemoryUnitOfWork(relay, {
        repositories: (counters) => stores.transactionRepositories(counters),
        participants: stores.participants,
        onMailCommitted: () => dispatcher.nudge(),
      }),
    [OutboxRelay, MailDispatcher],
  );
  container
    .bind<ProfileCommitter>(ProfileCommitter)
    .toResolvedValue((uow: UnitOfWork) => new UnitOfWorkProfileCommitter(uow), [UnitOfWork]);
}

/** The Postgres pool of the engine-backed stores. */
export const PostgresToken = Symbol.for('svc.PostgresDatabase');
type PostgresDatabase = Awaited<ReturnType<typeof createPostgresDatabase>>;

/** Migrations applied by {@link migrateStores}, by store. */
export interface AppliedMigrations {
  postgres: string[];
  columnar: string[];
}

/**
 * Applies pending Postgres and ClickHouse migrations of an engine-backed container (no-op for memory), the two
 * stores at once. The columnar store stays unopened in this process when it was (see LazyColumnarStore).
 * With `onColumnarUnavailable`, a columnar store out of reach is reported to it instead of failing: the store
 * migrates on first use (serve keeps answering everything but logs and analytics while ClickHouse is down).
 */
export async function migrateStores(
  container: Container,
  options: { onColumnarUnavailable?: (error: unknown) => void } = {},
): Promise<AppliedMigrations> {
  if (!container.isBound(PostgresToken)) return { postgres: [], columnar: [] };
  const [postgres, columnar] = await Promise.all([
    container.getAsync<PostgresDatabase>(PostgresToken).then((database) => migratePostgres(database.pool)),
    container
      .getAsync<ColumnarStore>(ColumnarStore)
      .then((store) => store.migrate())
      .catch((error: unknown) => {
        if (options.onColumnarUnavailable === undefined || !isDependencyUnavailable(error)) throw error;
        options.onColumnarUnavailable(error);
        return [];
      }),
  ]);
  return { postgres, columnar };
}

function bindEngineStores(
  container: Container,
  settings: Settings,
  logger: Logger,
  lifecycle: Lifecycle,
): void {
  container.bind<PostgresDatabase>(PostgresToken).toResolvedValue(async () => {
    const database = await createPostgresDatabase(
      settings.databaseUrl === undefined ? { dataDir: settings.dataDir } : { url: settings.databaseUrl },
      { tracer: traced },
    );
    return lifecycle.own('postgres', database, (owned) => owned.close());
  });
  container
    .bind<MessageBus>(MessageBus)
    .toResolvedValue(async () =>
      lifecycle.own('message bus', await createMessageBus({ natsUrl: settings.natsUrl }), (bus) =>
        bus.close(),
      ),
    );
  // Opened on first use: the embedded chdb alone is over a hundred MB of resident memory, and no route reads the store
  // before query logs and analytics do. Migrations of the embedded store run in a short-lived child process
  // until then, so serve still applies them at start (RUNNER.md) without loading chdb here.
  container
    .bind<ColumnarStore>(ColumnarStore)
    .toResolvedValue(() =>
      lifecycle.own(
        'columnar store',
        new LazyColumnarStore(
          () => createColumnarStore({ url: settings.clickhouseUrl, dataDir: settings.dataDir }),
          settings.clickhouseUrl === undefined
            ? () => migrateEmbeddedColumnarStore(settings.dataDir)
            : undefined,
        ),
        (owned) => owned.close(),
      ),
    );
  const mailer = createMailer({
    smtpUrl: settings.smtpUrl,
    dataDir: settings.dataDir,
    log: (line) => logger.info(line),
  });
  container.bind<Mailer>(Mailer).toConstantValue(mailer);
  container
    .bind<IdentityStore>(IdentityStore)
    .toResolvedValue(
      (database: PostgresDatabase) => postgresIdentityRepositories(database.pool),
      [PostgresToken],
    );
  // Concurrent profile reads coalesce into one statement each (never a cache: servers share the database).
  container
    .bind<ProfileStore>(ProfileStore)
    .toResolvedValue(
      (database: PostgresDatabase) => new PostgresProfileStore(database.pool),
      [PostgresToken],
    );
  container
    .bind<LinkedIpStore>(LinkedIpStore)
    .toResolvedValue(
      (database: PostgresDatabase) => new PostgresLinkedIpRepository(database.pool),
      [PostgresToken],
    );
  container
    .bind<DeviceStore>(DeviceStore)
    .toResolvedValue(
      (database: PostgresDatabase) => new PostgresDeviceRepository(database.pool),
      [PostgresToken],
    );
  container
    .bind<NodeStore>(NodeStore)
    .toResolvedValue(
      (database: PostgresDatabase) => new PostgresNodeRepository(database.pool),
      [PostgresToken],
    );
  container
    .bind<NodeLogHoldStore>(NodeLogHoldStore)
    .toResolvedValue(
      (database: PostgresDatabase) => new PostgresNodeLogHoldStore(database.pool),
      [PostgresToken],
    );
  container
    .bind<NodeLogBatchLedger>(NodeLogBatchLedger)
    .toResolvedValue(
      (database: PostgresDatabase) => new PostgresNodeLogBatchLedger(database.pool),
      [PostgresToken],
    );
  container
    .bind<NodeTotalsLedger>(NodeTotalsLedger)
    .toResolvedValue(
      (database: PostgresDatabase) => new PostgresNodeTotalsLedger(database.pool),
      [PostgresToken],
    );
  container
    .bind<ListReportStore>(ListReportStore)
    .toResolvedValue(
      (database: PostgresDatabase) => new PostgresListReportRepository(database.pool),
      [PostgresToken],
    );
  container
    .bind<AuditLogStore>(AuditLogStore)
    .toResolvedValue(
      (database: PostgresDatabase) => new PostgresAuditLogStore(database.pool),
      [PostgresToken],
    );
  container.bind<MailDispatcher>(MailDispatcher).toResolvedValue(
    (database: PostgresDatabase) => {
      const dispatcher = new PostgresMailDispatcher(database.pool, mailer, {
        log: (line) => logger.warn(line),
      });
      dispatcher.start();
      return lifecycle.own('mail dispatcher', dispatcher, (owned) => owned.stop());
    },
    [PostgresToken],
  );
  container
    .bind<IdempotencyStore>(IdempotencyStore)
    .toResolvedValue(
      (database: PostgresDatabase) => new PostgresIdempotencyStore(database.pool),
      [PostgresToken],
    );
  container.bind<OutboxRelay>(OutboxRelay).toResolvedValue(
    (database: PostgresDatabase, bus: MessageBus) => {
      const relay = new PostgresOutboxRelay(database.pool, bus);
      relay.start();
      return lifecycle.own('outbox relay', relay, (owned) => owned.stop());
    },
    [PostgresToken, MessageBus],
  );
  container.bind<UnitOfWork>(UnitOfWork).toResolvedValue(
    (database: PostgresDatabase, relay: PostgresOutboxRelay, dispatcher: MailDispatcher) =>
      new PostgresUnitOfWork(database.pool, {
        repositories: postgresTransactionRepositories,
        onCommit: (summary) => {
          if (summary.outboxMessages > 0) relay.nudge();
          if (summary.mailMessages > 0) dispatcher.nudge();
        },
      }),
    [PostgresToken, OutboxRelay, MailDispatcher],
  );
  container
    .bind<ProfileCommitter>(ProfileCommitter)
    .toResolvedValue(
      (database: PostgresDatabase, relay: PostgresOutboxRelay) =>
        new PostgresProfileCommitter(database.pool, { onCommit: () => relay.nudge() }),
      [PostgresToken, OutboxRelay],
    );
}
