import { AccountDeletionService, Clock, type ProfileService, UnitOfWork } from '@svc/domain';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Settings } from '../settings/settings.js';
import { AccountErasureScheduler } from './account-erasure.scheduler.js';
import type { Lifecycle } from './lifecycle.js';
import {
  AccountDeletionServiceToken,
  AccountErasureSchedulerToken,
  LifecycleToken,
  LoggerToken,
  ProfileServiceToken,
  SettingsToken,
} from './tokens.js';

/** Binds account deletion and the erasure scheduler (started on resolve, stopped by the Lifecycle). */
export function bindAccountDeletion(container: Container): void {
  container.bind<AccountDeletionService>(AccountDeletionServiceToken).toResolvedValue(
    (uow: UnitOfWork, clock: Clock, profiles: ProfileService, settings: Settings) =>
      new AccountDeletionService({
        uow,
        clock,
        coolingOffDays: settings.deletionCoolingOffDays,
        publishProfile: (tx, profile) => profiles.publish(tx, profile),
      }),
    [UnitOfWork, Clock, ProfileServiceToken, SettingsToken],
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
