import type { ListSettings } from '@svc/composition';
import {
  type AccountDeletionService,
  Clock,
  type DataExportService,
  type ListPipelineService,
  ListPipelineStore,
  UnitOfWork,
  type WebhookDispatcher,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { AccountErasureScheduler } from './account-erasure.scheduler.js';
import { DataExportScheduler } from './data-export.scheduler.js';
import { ListRefreshScheduler } from './list-refresh.scheduler.js';
import { OperatorExpiryScheduler } from './operator-expiry.scheduler.js';
import { ServerJob } from './server-job.js';
import {
  AccountDeletionServiceToken,
  AccountErasureSchedulerToken,
  DataExportSchedulerToken,
  DataExportServiceToken,
  ListPipelineServiceToken,
  ListRefreshSchedulerToken,
  LoggerToken,
  OperatorExpirySchedulerToken,
  WebhookDeliverySchedulerToken,
  WebhookDispatcherToken,
} from './tokens.js';
import { WebhookDeliveryScheduler } from './webhook-delivery.scheduler.js';

/**
 * The API server's background work over the use cases (docs/architecture.md "Background work"): each job is
 * bound under its own token (tests run it on demand) and contributed as a {@link ServerJob}, which the server
 * starts once it serves and its Lifecycle stops. CLI commands run none of them.
 */
export function serverJobsModule(lists: ListSettings): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<AccountErasureScheduler>(AccountErasureSchedulerToken).toResolvedValue(
      (deletion: AccountDeletionService, logger: Logger) => new AccountErasureScheduler(deletion, logger),
      [AccountDeletionServiceToken, LoggerToken],
    );
    bind<OperatorExpiryScheduler>(OperatorExpirySchedulerToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock, logger: Logger) => new OperatorExpiryScheduler(uow, clock, logger),
      [UnitOfWork, Clock, LoggerToken],
    );
    bind<DataExportScheduler>(DataExportSchedulerToken).toResolvedValue(
      (exports: DataExportService, logger: Logger) => new DataExportScheduler(exports, logger),
      [DataExportServiceToken, LoggerToken],
    );
    bind<ListRefreshScheduler>(ListRefreshSchedulerToken).toResolvedValue(
      (pipeline: ListPipelineService, store: ListPipelineStore, clock: Clock, logger: Logger) =>
        new ListRefreshScheduler({
          pipeline,
          store,
          clock,
          logger,
          refreshHours: lists.refreshHours,
        }),
      [ListPipelineServiceToken, ListPipelineStore, Clock, LoggerToken],
    );
    bind<WebhookDeliveryScheduler>(WebhookDeliverySchedulerToken).toResolvedValue(
      (dispatcher: WebhookDispatcher, logger: Logger) => new WebhookDeliveryScheduler(dispatcher, logger),
      [WebhookDispatcherToken, LoggerToken],
    );
    bind<ServerJob>(ServerJob).toService(AccountErasureSchedulerToken);
    bind<ServerJob>(ServerJob).toService(WebhookDeliverySchedulerToken);
    bind<ServerJob>(ServerJob).toService(OperatorExpirySchedulerToken);
    bind<ServerJob>(ServerJob).toService(DataExportSchedulerToken);
    // At 0 hours the schedule is off; `svc lists refresh` and tests still run it on demand.
    if (lists.refreshHours > 0) bind<ServerJob>(ServerJob).toService(ListRefreshSchedulerToken);
  });
}
