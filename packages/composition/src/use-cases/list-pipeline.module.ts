import { randomUUID } from 'node:crypto';
import { UndiciListSourceFetcher } from '@svc/adapters';
import {
  Clock,
  LISTS_CHANGED_SUBJECT,
  ListArtifactStore,
  ListPipelineService,
  ListPipelineStore,
  ListSourceFetcher,
  MessageBus,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { Settings } from '../settings/settings.js';
import { ListPipelineServiceToken } from './use-case.tokens.js';

/**
 * Binds the list pipeline and its fetcher (undici). Its state and its artifacts are bound by the adapter family;
 * its refresh schedule is the HTTP server's background work.
 */
export function listPipelineModule(settings: Pick<Settings, 'lists' | 'outbound'>): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<ListSourceFetcher>(ListSourceFetcher).toConstantValue(
      new UndiciListSourceFetcher({
        maxBytes: settings.lists.maxBytes,
        timeoutMs: settings.lists.fetchTimeoutMs,
        allowPrivate: settings.outbound.allowPrivate,
      }),
    );
    bind<ListPipelineService>(ListPipelineServiceToken).toResolvedValue(
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
  });
}
