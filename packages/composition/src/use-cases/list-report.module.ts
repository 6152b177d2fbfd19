import {
  Clock,
  type CursorSealer,
  findBlocklist,
  type ListPipelineService,
  ListReportService,
  ListReportStore,
  type ProfileService,
  Random,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import {
  CursorSealerToken,
  ListPipelineServiceToken,
  ListReportServiceToken,
  ProfileServiceToken,
} from './use-case.tokens.js';

/**
 * Binds the list-report use cases on the blocklist catalogue and the lists' compiled versions; ListReportStore is
 * bound by the storage family.
 */
export function listReportsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<ListReportService>(ListReportServiceToken).toResolvedValue(
      (
        uow: UnitOfWork,
        profiles: ProfileService,
        store: ListReportStore,
        random: Random,
        clock: Clock,
        cursors: CursorSealer,
        pipeline: ListPipelineService,
      ) =>
        new ListReportService({
          uow,
          profiles,
          store,
          random,
          clock,
          cursors,
          findList: async (listId) =>
            findBlocklist(listId) === undefined
              ? undefined
              : { version: await pipeline.currentVersion(listId) },
        }),
      [
        UnitOfWork,
        ProfileServiceToken,
        ListReportStore,
        Random,
        Clock,
        CursorSealerToken,
        ListPipelineServiceToken,
      ],
    );
  });
}
