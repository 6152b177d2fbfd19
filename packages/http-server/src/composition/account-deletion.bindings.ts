import { ClickHouseClientSource, ClickHouseQueryLogEraser } from '@svc/adapters';
import type { Lifecycle } from '@svc/composition';
import {
  AccountDeletionService,
  accountNodesRevocation,
  Clock,
  type ProfileService,
  QueryLogEraser,
  UnitOfWork,
} from '@svc/domain';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Settings } from '../settings/settings.js';
import { AccountErasureScheduler } from './account-erasure.scheduler.js';
import {
  AccountDeletionServiceToken,
  AccountErasureSchedulerToken,
  LifecycleToken,
  LoggerToken,
  ProfileServiceToken,
  SettingsToken,
} from './tokens.js';

/** The eraser of the columnar store, or null when the server has none (memory storage). */
const OptionalQueryLogEraser = Symbol.for('svc.OptionalQueryLogEraser');

/**
 * Binds account deletion and the erasure scheduler (started on resolve, stopped by the Lifecycle). The
 * erasure also erases the profiles' query logs and counts in the columnar store when one is configured (it
 * opens the store only when an erased organisation had profiles).
 */
export function bindAccountDeletion(container: Container): void {
  if (container.isBound(ClickHouseClientSource) && !container.isBound(QueryLogEraser)) {
    container
      .bind<QueryLogEraser>(QueryLogEraser)
      .toResolvedValue(
        (source: ClickHouseClientSource) => new ClickHouseQueryLogEraser(() => source.store()),
        [ClickHouseClientSource],
      );
  }
  container
    .bind<QueryLogEraser | null>(OptionalQueryLogEraser)
    .toResolvedValue(async () =>
      container.isBound(QueryLogEraser) ? container.getAsync<QueryLogEraser>(QueryLogEraser) : null,
    );
  container.bind<AccountDeletionService>(AccountDeletionServiceToken).toResolvedValue(
    (
      uow: UnitOfWork,
      clock: Clock,
      profiles: ProfileService,
      settings: Settings,
      queryLogs: QueryLogEraser | null,
    ) =>
      new AccountDeletionService({
        uow,
        nodes: accountNodesRevocation,
        clock,
        coolingOffDays: settings.deletionCoolingOffDays,
        publishProfile: (tx, profile) => profiles.publish(tx, profile),
        queryLogs,
      }),
    [UnitOfWork, Clock, ProfileServiceToken, SettingsToken, OptionalQueryLogEraser],
  );
  container.bind<AccountErasureScheduler>(AccountErasureSchedulerToken).toResolvedValue(
    (deletion: AccountDeletionService, logger: Logger, lifecycle: Lifecycle) => {
      const scheduler = new AccountErasureScheduler(deletion, logger);
      scheduler.start();
      return lifecycle.own('account erasure scheduler', scheduler, (owned) => owned.stop());
    },
    [AccountDeletionServiceToken, LoggerToken, LifecycleToken],
  );
}
