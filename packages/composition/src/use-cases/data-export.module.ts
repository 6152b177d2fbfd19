import { sha256RunningDigest } from '@svc/adapters';
import {
  AccountArchiveCollector,
  AuditLogStore,
  auditActorEmails,
  Clock,
  type CursorSealer,
  DataExportService,
  type DeviceService,
  IdentityStore,
  type LinkedIpService,
  type ListReportService,
  type NodeService,
  type ProfileService,
  type QueryLogReader,
  Random,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { HttpSettings } from '../settings/http.settings.js';
import {
  AccountArchiveCollectorToken,
  CursorSealerToken,
  DataExportServiceToken,
  DeviceServiceToken,
  LinkedIpServiceToken,
  ListReportServiceToken,
  NodeServiceToken,
  OptionalQueryLogReaderToken,
  ProfileServiceToken,
} from './use-case.tokens.js';

/**
 * Binds data exports and the collector of an account's archive; the archive holds the profiles' query logs when
 * there is a columnar store (the reader bound by the query-log module).
 */
export function dataExportsModule(http: HttpSettings): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<AccountArchiveCollector>(AccountArchiveCollectorToken).toResolvedValue(
      (
        uow: UnitOfWork,
        audit: AuditLogStore,
        profiles: ProfileService,
        linkedIps: LinkedIpService,
        devices: DeviceService,
        listReports: ListReportService,
        nodes: NodeService,
        identity: IdentityStore,
      ) =>
        new AccountArchiveCollector({
          uow,
          audit,
          actors: auditActorEmails(identity),
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
        IdentityStore,
      ],
    );
    bind<DataExportService>(DataExportServiceToken).toResolvedValue(
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
          baseUrl: http.baseUrl,
          queryLogs,
          archiveDigest: sha256RunningDigest,
        }),
      [
        UnitOfWork,
        Clock,
        Random,
        CursorSealerToken,
        AccountArchiveCollectorToken,
        OptionalQueryLogReaderToken,
      ],
    );
  });
}
