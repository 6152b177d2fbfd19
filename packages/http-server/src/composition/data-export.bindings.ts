import { sha256RunningDigest } from '@svc/adapters';
import type { Lifecycle } from '@svc/composition';
import {
  AccountArchiveCollector,
  AuditLogStore,
  Clock,
  type CursorSealer,
  DataExportService,
  type DeviceService,
  type LinkedIpService,
  type ListReportService,
  type NodeService,
  type ProfileService,
  type QueryLogReader,
  Random,
  UnitOfWork,
} from '@svc/domain';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Settings } from '../settings/settings.js';
import { DataExportScheduler } from './data-export.scheduler.js';
import {
  AccountArchiveCollectorToken,
  CursorSealerToken,
  DataExportSchedulerToken,
  DataExportServiceToken,
  DeviceServiceToken,
  LifecycleToken,
  LinkedIpServiceToken,
  ListReportServiceToken,
  LoggerToken,
  NodeServiceToken,
  ProfileServiceToken,
} from './tokens.js';

/**
 * The columnar store's log reader or null, as bound by bindQueryLogs (query-log.bindings.ts) under this
 * registered symbol: the archive holds the profiles' query logs when the server has a columnar store.
 */
const OptionalQueryLogReader = Symbol.for('svc.OptionalQueryLogReader');

/** Binds data exports and their job (started on resolve, stopped by the Lifecycle). */
export function bindDataExports(container: Container, settings: Settings): void {
  container.bind<AccountArchiveCollector>(AccountArchiveCollectorToken).toResolvedValue(
    (
      uow: UnitOfWork,
      audit: AuditLogStore,
      profiles: ProfileService,
      linkedIps: LinkedIpService,
      devices: DeviceService,
      listReports: ListReportService,
      nodes: NodeService,
    ) =>
      new AccountArchiveCollector({
        uow,
        audit,
        views: {
          profile: (record) => profiles.view(record),
          linkedIp: (record) => linkedIps.view(record),
          device: (record) => devices.view(record, null),
          listReport: (record) => listReports.view(record),
          node: (record) => nodes.view(record),
        },
      }),
    [
      UnitOfWork,
      AuditLogStore,
      ProfileServiceToken,
      LinkedIpServiceToken,
      DeviceServiceToken,
      ListReportServiceToken,
      NodeServiceToken,
    ],
  );
  container.bind<DataExportService>(DataExportServiceToken).toResolvedValue(
    (
      uow: UnitOfWork,
      clock: Clock,
      random: Random,
      cursors: CursorSealer,
      collector: AccountArchiveCollector,
      queryLogs: QueryLogReader | null,
    ) =>
      new DataExportService({
        uow,
        clock,
        random,
        cursors,
        collector,
        baseUrl: settings.baseUrl,
        queryLogs,
        archiveDigest: sha256RunningDigest,
      }),
    [UnitOfWork, Clock, Random, CursorSealerToken, AccountArchiveCollectorToken, OptionalQueryLogReader],
  );
  container.bind<DataExportScheduler>(DataExportSchedulerToken).toResolvedValue(
    (exports: DataExportService, logger: Logger, lifecycle: Lifecycle) => {
      const scheduler = new DataExportScheduler(exports, logger);
      scheduler.start();
      return lifecycle.own('data export job', scheduler, (owned) => owned.stop());
    },
    [DataExportServiceToken, LoggerToken, LifecycleToken],
  );
}
