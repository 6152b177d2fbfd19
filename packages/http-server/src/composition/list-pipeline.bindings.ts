import { randomUUID } from 'node:crypto';
import {
  FileListArtifactStore,
  MemoryListArtifactStore,
  MemoryListPipelineStore,
  PostgresListArtifactStore,
  PostgresListPipelineStore,
  UndiciListSourceFetcher,
} from '@svc/adapters';
import {
  Clock,
  LISTS_CHANGED_SUBJECT,
  ListArtifactStore,
  ListPipelineService,
  ListPipelineStore,
  ListSourceFetcher,
  MessageBus,
} from '@svc/domain';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Settings } from '../settings/settings.js';
import type { StorageKind } from './container.js';
import type { Lifecycle } from './lifecycle.js';
import { ListRefreshScheduler } from './list-refresh.scheduler.js';
import {
  LifecycleToken,
  ListPipelineServiceToken,
  ListRefreshSchedulerToken,
  LoggerToken,
} from './tokens.js';

type PostgresDatabase = { pool: ConstructorParameters<typeof PostgresListArtifactStore>[0] };

/**
 * Binds the list pipeline: its fetcher (undici), its state (memory, or the database), where artifacts live
 * (memory; the data dir on the embedded default; chunks in PostgreSQL with DATABASE_URL, shared by every
 * server), the pipeline and its refresh schedule (started on resolve unless SVC_LIST_REFRESH_HOURS is 0).
 * `postgres` is the token of the Postgres pool (passed in: container.ts imports this module).
 */
export function bindListPipeline(
  container: Container,
  settings: Settings,
  storage: StorageKind,
  postgres: symbol,
): void {
  container.bind<ListSourceFetcher>(ListSourceFetcher).toConstantValue(
    new UndiciListSourceFetcher({
      maxBytes: settings.lists.maxBytes,
      timeoutMs: settings.lists.fetchTimeoutMs,
    }),
  );
  if (storage === 'memory') {
    container.bind<ListArtifactStore>(ListArtifactStore).toConstantValue(new MemoryListArtifactStore());
    container.bind<ListPipelineStore>(ListPipelineStore).toConstantValue(new MemoryListPipelineStore());
  } else {
    container
      .bind<ListArtifactStore>(ListArtifactStore)
      .toResolvedValue(
        (database: PostgresDatabase) =>
          settings.databaseUrl === undefined
            ? new FileListArtifactStore(settings.dataDir)
            : new PostgresListArtifactStore(database.pool),
        [postgres],
      );
    container
      .bind<ListPipelineStore>(ListPipelineStore)
      .toResolvedValue(
        (database: PostgresDatabase) => new PostgresListPipelineStore(database.pool),
        [postgres],
      );
  }
  container.bind<ListPipelineService>(ListPipelineServiceToken).toResolvedValue(
    (
      fetcher: ListSourceFetcher,
      artifacts: ListArtifactStore,
      store: ListPipelineStore,
      clock: Clock,
      bus: MessageBus,
    ) =>
      new ListPipelineService({
        fetcher,
        artifacts,
        store,
        clock,
        holder: randomUUID(),
        ...(settings.lists.mirrorUrl === undefined ? {} : { mirror: settings.lists.mirrorUrl }),
        announce: (listIds) => bus.publish(LISTS_CHANGED_SUBJECT, { list_ids: listIds }),
      }),
    [ListSourceFetcher, ListArtifactStore, ListPipelineStore, Clock, MessageBus],
  );
  container.bind<ListRefreshScheduler>(ListRefreshSchedulerToken).toResolvedValue(
    (
      pipeline: ListPipelineService,
      store: ListPipelineStore,
      clock: Clock,
      logger: Logger,
      lifecycle: Lifecycle,
    ) => {
      const scheduler = new ListRefreshScheduler({
        pipeline,
        store,
        clock,
        logger,
        refreshHours: settings.lists.refreshHours,
      });
      if (settings.lists.refreshHours > 0) scheduler.start();
      return lifecycle.own('list refresh scheduler', scheduler, (owned) => owned.stop());
    },
    [ListPipelineServiceToken, ListPipelineStore, Clock, LoggerToken, LifecycleToken],
  );
}
