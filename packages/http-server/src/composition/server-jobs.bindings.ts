import type { Lifecycle, Settings } from '@svc/composition';
import {
  type AccountDeletionService,
  Clock,
  type DataExportService,
  type ListPipelineService,
  ListPipelineStore,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { AccountErasureScheduler } from './account-erasure.scheduler.js';
import { DataExportScheduler } from './data-export.scheduler.js';
import { ListRefreshScheduler } from './list-refresh.scheduler.js';
import { OperatorExpiryScheduler } from './operator-expiry.scheduler.js';
import {
  AccountDeletionServiceToken,
  AccountErasureSchedulerToken,
  DataExportSchedulerToken,
  DataExportServiceToken,
  LifecycleToken,
  ListPipelineServiceToken,
  ListRefreshSchedulerToken,
  LoggerToken,
  OperatorExpirySchedulerToken,
} from './tokens.js';

/**
 * The API server's background work over the use cases (docs/architecture.md "Background work"): each job
 * starts when the application resolves it and stops with the Lifecycle. CLI commands run none of them.
 */
export function serverJobsModule(settings: Settings): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<AccountErasureScheduler>(AccountErasureSchedulerToken).toResolvedValue(
      (deletion: AccountDeletionService, logger: Logger, lifecycle: Lifecycle) => {
        const scheduler = new AccountErasureScheduler(deletion, logger);
        scheduler.start();
        return lifecycle.own('account erasure scheduler', scheduler, (owned) => owned.stop());
      },
      [AccountDeletionServiceToken, LoggerToken, LifecycleToken],
    );
    bind<OperatorExpiryScheduler>(OperatorExpirySchedulerToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock, logger: Logger, lifecycle: Lifecycle) => {
        const scheduler = new OperatorExpiryScheduler(uow, clock, logger);
        scheduler.start();
        return lifecycle.own('operator expiry scheduler', scheduler, (owned) => owned.stop());
      },
      [UnitOfWork, Clock, LoggerToken, LifecycleToken],
    );
    bind<DataExportScheduler>(DataExportSchedulerToken).toResolvedValue(
      (exports: DataExportService, logger: Logger, lifecycle: Lifecycle) => {
        const scheduler = new DataExportScheduler(exports, logger);
        scheduler.start();
        return lifecycle.own('data export job', scheduler, (owned) => owned.stop());
      },
      [DataExportServiceToken, LoggerToken, LifecycleToken],
    );
    bind<ListRefreshScheduler>(ListRefreshSchedulerToken).toResolvedValue(
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
  });
}
