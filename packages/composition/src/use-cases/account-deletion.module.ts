import {
  AccountDeletionService,
  accountNodesRevocation,
  Clock,
  type ProfileService,
  QueryLogEraser,
  Random,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { AccountSettings } from '../settings/accounts.settings.js';
import type { DashboardSettings } from '../settings/dashboard.settings.js';
import { AccountDeletionServiceToken, ProfileServiceToken } from './use-case.tokens.js';

/**
 * Binds account deletion. The erasure also erases the profiles' query logs and counts through the storage
 * family's eraser (the columnar store's opens only when an erased organisation had profiles). The dashboard's
 * URL is that of the undo link the owner is mailed.
 */
export function accountDeletionModule(
  accounts: AccountSettings,
  dashboard: Pick<DashboardSettings, 'url'>,
): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<AccountDeletionService>(AccountDeletionServiceToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock, random: Random, profiles: ProfileService, queryLogs: QueryLogEraser) =>
        new AccountDeletionService({
          uow,
          nodes: accountNodesRevocation,
          clock,
          random,
          coolingOffDays: accounts.deletionCoolingOffDays,
          publishProfile: (tx, profile) => profiles.publish(tx, profile),
          queryLogs,
          dashboardUrl: dashboard.url.replace(/\/+$/, ''),
        }),
      [UnitOfWork, Clock, Random, ProfileServiceToken, QueryLogEraser],
    );
  });
}
