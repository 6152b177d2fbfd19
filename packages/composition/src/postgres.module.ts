import {
  createPostgresDatabase,
  FileListArtifactStore,
  migratePostgres,
  PostgresAuditLogStore,
  type PostgresDatabase,
  PostgresDeviceRepository,
  PostgresIdempotencyStore,
  PostgresLinkedIpRepository,
  PostgresListArtifactStore,
  PostgresListPipelineStore,
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
  ProfileOwnerLookup,
  postgresIdentityRepositories,
  postgresProfileOrganisation,
  postgresQueueDepths,
  postgresTransactionRepositories,
  type QueueDepths,
  ReadinessProbe,
  type StorageCallTracer,
} from '@svc/adapters';
import {
  AuditLogStore,
  DeviceStore,
  IdempotencyStore,
  IdentityStore,
  LinkedIpStore,
  ListArtifactStore,
  ListPipelineStore,
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
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule, type ServiceIdentifier } from 'inversify';
import type { AdapterLog, AdapterSettings } from './adapter-settings.js';
import type { Lifecycle } from './lifecycle.js';
import { PostgresToken, StoreMigrations } from './tokens.js';

/** What the PostgreSQL family needs besides the settings. */
export interface PostgresModuleOptions {
  lifecycle: Lifecycle;
  log: AdapterLog;
  /** Wraps each statement (the server's OpenTelemetry spans). */
  tracer: StorageCallTracer;
}

/**
 * The outbox and mail queues' depths, read by the server's metrics at scrape time: bound by the family that
 * keeps those queues (PostgreSQL), unbound where they are not kept (memory).
 */
export const QueueDepthSource = Symbol.for('svc.QueueDepthSource');
export interface QueueDepthSource {
  read(): Promise<QueueDepths>;
}

/**
 * The PostgreSQL family: the pool (DATABASE_URL, else the embedded PGlite in the data dir, opened on first
 * use), every relational store on it, the list pipeline's state and artifacts, the transactional outbox and
 * its relay, the durable mail queue and its dispatcher. The relay publishes on the bound MessageBus and the dispatcher sends with the bound Mailer, which
 * other families provide.
 */
export function postgresModule(
  settings: AdapterSettings['storage'],
  options: PostgresModuleOptions,
): ContainerModule {
  const { lifecycle, log, tracer } = options;
  return new ContainerModule(({ bind }) => {
    bind<PostgresDatabase>(PostgresToken).toResolvedValue(async () => {
      const database = await createPostgresDatabase(
        settings.databaseUrl === undefined ? { dataDir: settings.dataDir } : { url: settings.databaseUrl },
        { tracer },
      );
      return lifecycle.own('postgres', database, (owned) => owned.close());
    });
    /** Binds `id` to a store made on the pool, opening the pool on first use. */
    const onPool = <T>(id: ServiceIdentifier<T>, make: (pool: PostgresDatabase['pool']) => T) =>
      bind<T>(id).toResolvedValue((database: PostgresDatabase) => make(database.pool), [PostgresToken]);
    onPool<ReadinessProbe>(ReadinessProbe, (pool) => ({
      dependency: 'postgres',
      isOpen: () => true,
      ping: async () => {
        await pool.query('SELECT 1');
        return true;
      },
    }));
    onPool<StoreMigrations>(StoreMigrations, (pool) => ({
      store: 'postgres',
      migrate: () => migratePostgres(pool),
    }));
    onPool<QueueDepthSource>(QueueDepthSource, (pool) => ({ read: () => postgresQueueDepths(pool) }));
    onPool<ProfileOwnerLookup>(ProfileOwnerLookup, (pool) => ({
      organisationOf: (profileId) => postgresProfileOrganisation(pool, profileId),
    }));
    onPool<IdentityStore>(IdentityStore, postgresIdentityRepositories);
    // Concurrent profile reads coalesce into one statement each (never a cache: servers share the database).
    onPool<ProfileStore>(ProfileStore, (pool) => new PostgresProfileStore(pool));
    onPool<LinkedIpStore>(LinkedIpStore, (pool) => new PostgresLinkedIpRepository(pool));
    onPool<DeviceStore>(DeviceStore, (pool) => new PostgresDeviceRepository(pool));
    onPool<NodeStore>(NodeStore, (pool) => new PostgresNodeRepository(pool));
    onPool<NodeLogHoldStore>(NodeLogHoldStore, (pool) => new PostgresNodeLogHoldStore(pool));
    onPool<NodeLogBatchLedger>(NodeLogBatchLedger, (pool) => new PostgresNodeLogBatchLedger(pool));
    onPool<NodeTotalsLedger>(NodeTotalsLedger, (pool) => new PostgresNodeTotalsLedger(pool));
    onPool<ListReportStore>(ListReportStore, (pool) => new PostgresListReportRepository(pool));
    onPool<AuditLogStore>(AuditLogStore, (pool) => new PostgresAuditLogStore(pool));
    onPool<IdempotencyStore>(IdempotencyStore, (pool) => new PostgresIdempotencyStore(pool));
    onPool<ListPipelineStore>(ListPipelineStore, (pool) => new PostgresListPipelineStore(pool));
    // List artifacts are files in the data dir beside the embedded database, and chunks in a PostgreSQL server,
    // where every server of a deployment reads them.
    onPool<ListArtifactStore>(ListArtifactStore, (pool) =>
      settings.databaseUrl === undefined
        ? new FileListArtifactStore(settings.dataDir)
        : new PostgresListArtifactStore(pool),
    );
    bind<MailDispatcher>(MailDispatcher).toResolvedValue(
      (database: PostgresDatabase, mailer: Mailer) => {
        const dispatcher = new PostgresMailDispatcher(database.pool, mailer, {
          log: (line) => log.warn(line),
        });
        dispatcher.start();
        return lifecycle.own('mail dispatcher', dispatcher, (owned) => owned.stop());
      },
      [PostgresToken, Mailer],
    );
    bind<OutboxRelay>(OutboxRelay).toResolvedValue(
      (database: PostgresDatabase, bus: MessageBus) => {
        const relay = new PostgresOutboxRelay(database.pool, bus);
        relay.start();
        return lifecycle.own('outbox relay', relay, (owned) => owned.stop());
      },
      [PostgresToken, MessageBus],
    );
    bind<UnitOfWork>(UnitOfWork).toResolvedValue(
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
    bind<ProfileCommitter>(ProfileCommitter).toResolvedValue(
      (database: PostgresDatabase, relay: PostgresOutboxRelay) =>
        new PostgresProfileCommitter(database.pool, { onCommit: () => relay.nudge() }),
      [PostgresToken, OutboxRelay],
    );
  });
}
