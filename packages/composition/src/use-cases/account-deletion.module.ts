import {
  AccountDeletionService,
  accountNodesRevocation,
  Clock,
  type ProfileService,
  QueryLogEraser,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { Settings } from '../settings/settings.js';
import { AccountDeletionServiceToken, ProfileServiceToken } from './use-case.tokens.js';

/**
 * Binds account deletion. The erasure also erases the profiles' query logs and counts through the storage
 * family's eraser (the columnar store's opens only when an erased organisation had profiles).
 */
export function accountDeletionModule(settings: Settings): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<AccountDeletionService>(AccountDeletionServiceToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock, profiles: ProfileService, queryLogs: QueryLogEraser) =>
        new AccountDeletionService({
          uow,
          nodes: accountNodesRevocation,
          clock,
          coolingOffDays: settings.deletionCoolingOffDays,
          publishProfile: (tx, profile) => profiles.publish(tx, profile),
          queryLogs,
        }),
      [UnitOfWork, Clock, ProfileServiceToken, QueryLogEraser],
    );
  });
}
