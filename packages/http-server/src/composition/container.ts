import {
  CryptoRandom,
  createColumnarStore,
  createMailer,
  createMessageBus,
  createPostgresDatabase,
  HmacKeyedHash,
  InProcessMessageBus,
  loadOrCreateDevelopmentSecret,
  MemoryIdempotencyStore,
  MemoryMailer,
  MemoryOutboxRelay,
  MemoryUnitOfWork,
  migratePostgres,
  PostgresIdempotencyStore,
  PostgresOutboxRelay,
  PostgresUnitOfWork,
  SystemClock,
} from '@svc/adapters';
import {
  Clock,
  ColumnarStore,
  CursorSealer,
  IdempotencyService,
  IdempotencyStore,
  KeyedHash,
  Mailer,
  MessageBus,
  OutboxRelay,
  Random,
  UnitOfWork,
} from '@svc/domain';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import { Authenticator, NoCredentialsAuthenticator } from '../http/principal.js';
import type { Settings } from '../settings/settings.js';
import { Lifecycle } from './lifecycle.js';
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
  container
    .bind<KeyedHash>(KeyedHash)
    .toResolvedValue(
      async () =>
        new HmacKeyedHash(settings.secret ?? (await loadOrCreateDevelopmentSecret(settings.dataDir))),
    );
  container.bind<Authenticator>(Authenticator).toConstantValue(new NoCredentialsAuthenticator());

  if (options.storage === 'memory') bindMemoryStores(container);
  else bindEngineStores(container, settings, logger, lifecycle);

  container
    .bind<IdempotencyService>(IdempotencyServiceToken)
    .toResolvedValue(
      (store: IdempotencyStore, clock: Clock) => new IdempotencyService(store, clock),
      [IdempotencyStore, Clock],
    );
  container
    .bind<CursorSealer>(CursorSealerToken)
    .toResolvedValue((hash: KeyedHash) => new CursorSealer(hash), [KeyedHash]);
  return container;
}

function bindMemoryStores(container: Container): void {
  container.bind<MessageBus>(MessageBus).toConstantValue(new InProcessMessageBus());
  container.bind<Mailer>(Mailer).toConstantValue(new MemoryMailer());
  container.bind<IdempotencyStore>(IdempotencyStore).toConstantValue(new MemoryIdempotencyStore());
  container
    .bind<MemoryOutboxRelay>(OutboxRelay)
    .toResolvedValue((bus: MessageBus) => new MemoryOutboxRelay(bus), [MessageBus]);
  container
    .bind<UnitOfWork>(UnitOfWork)
    .toResolvedValue((relay: MemoryOutboxRelay) => new MemoryUnitOfWork(relay), [OutboxRelay]);
}

/** The Postgres pool of the engine-backed stores. */
export const PostgresToken = Symbol.for('svc.PostgresDatabase');
type PostgresDatabase = Awaited<ReturnType<typeof createPostgresDatabase>>;

/** Migrations applied by {@link migrateStores}, by store. */
export interface AppliedMigrations {
  postgres: string[];
  columnar: string[];
}

/** Applies pending Postgres and ClickHouse migrations of an engine-backed container (no-op for memory). */
export async function migrateStores(container: Container): Promise<AppliedMigrations> {
  if (!container.isBound(PostgresToken)) return { postgres: [], columnar: [] };
  const [database, columnar] = await Promise.all([
    container.getAsync<PostgresDatabase>(PostgresToken),
    container.getAsync<ColumnarStore>(ColumnarStore),
  ]);
  return { postgres: await migratePostgres(database.pool), columnar: await columnar.migrate() };
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
  container.bind<ColumnarStore>(ColumnarStore).toResolvedValue(async () => {
    return lifecycle.own(
      'columnar store',
      await createColumnarStore({ url: settings.clickhouseUrl, dataDir: settings.dataDir }),
      (owned) => owned.close(),
    );
  });
  container.bind<Mailer>(Mailer).toConstantValue(
    createMailer({
      smtpUrl: settings.smtpUrl,
      dataDir: settings.dataDir,
      log: (line) => logger.info(line),
    }),
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
  container
    .bind<UnitOfWork>(UnitOfWork)
    .toResolvedValue(
      (database: PostgresDatabase, relay: PostgresOutboxRelay) =>
        new PostgresUnitOfWork(database.pool, { onCommitWithMessages: () => relay.nudge() }),
      [PostgresToken, OutboxRelay],
    );
}
