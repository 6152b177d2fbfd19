import {
  Clock,
  type CursorSealer,
  findBlocklist,
  ListReportService,
  ListReportStore,
  type ProfileService,
  Random,
  UnitOfWork,
} from '@svc/domain';
import type { Container } from 'inversify';
import { CursorSealerToken, ListReportServiceToken, ProfileServiceToken } from './tokens.js';

/** Binds the list-report use cases on the blocklist catalogue; ListReportStore is bound by the storage family. */
export function bindListReports(container: Container): void {
  container
    .bind<ListReportService>(ListReportServiceToken)
    .toResolvedValue(
      (
        uow: UnitOfWork,
        profiles: ProfileService,
        store: ListReportStore,
        random: Random,
        clock: Clock,
        cursors: CursorSealer,
      ) => new ListReportService({ uow, profiles, store, random, clock, cursors, findList: findBlocklist }),
      [UnitOfWork, ProfileServiceToken, ListReportStore, Random, Clock, CursorSealerToken],
    );
}
