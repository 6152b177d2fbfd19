import { randomUUID } from 'node:crypto';
import { UndiciListSourceFetcher } from '@svc/adapters';
import type { Lifecycle } from '@svc/composition';
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
import { ListRefreshScheduler } from './list-refresh.scheduler.js';
import {
  LifecycleToken,
  ListPipelineServiceToken,
  ListRefreshSchedulerToken,
  LoggerToken,
} from './tokens.js';

/**
 * Binds the list pipeline: its fetcher (undici), the pipeline and its refresh schedule (started on resolve
 * unless SVC_LIST_REFRESH_HOURS is 0). Its state and its artifacts are bound by the adapter family.
 */
export function bindListPipeline(container: Container, settings: Settings): void {
  container.bind<ListSourceFetcher>(ListSourceFetcher).toConstantValue(
    new UndiciListSourceFetcher({
      maxBytes: settings.lists.maxBytes,
      timeoutMs: settings.lists.fetchTimeoutMs,
    }),
  );
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
