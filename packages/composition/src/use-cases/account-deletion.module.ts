import { ClickHouseClientSource, ClickHouseQueryLogEraser } from '@svc/adapters';
import {
  AccountDeletionService,
  accountNodesRevocation,
  Clock,
  type ProfileService,
  QueryLogEraser,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { AccountSettings } from '../settings/accounts.settings.js';
import { AccountDeletionServiceToken, ProfileServiceToken } from './use-case.tokens.js';

/** The eraser of the columnar store, or null when there is none (memory storage). */
const OptionalQueryLogEraser = Symbol.for('svc.OptionalQueryLogEraser');

/**
 * Binds account deletion. The erasure also erases the profiles' query logs and counts in the columnar store when
 * one is configured (it opens the store only when an erased organisation had profiles).
 */
export function accountDeletionModule(accounts: AccountSettings): ContainerModule {
  return new ContainerModule(({ bind, isBound }) => {
    const eraser = isBound(ClickHouseClientSource) || isBound(QueryLogEraser);
    if (isBound(ClickHouseClientSource) && !isBound(QueryLogEraser)) {
      bind<QueryLogEraser>(QueryLogEraser).toResolvedValue(
        (source: ClickHouseClientSource) => new ClickHouseQueryLogEraser(() => source.store()),
        [ClickHouseClientSource],
      );
    }
    if (eraser) {
      bind<QueryLogEraser | null>(OptionalQueryLogEraser).toResolvedValue(
        (queryLogs: QueryLogEraser) => queryLogs,
        [QueryLogEraser],
      );
    } else {
      bind<QueryLogEraser | null>(OptionalQueryLogEraser).toConstantValue(null);
    }
    bind<AccountDeletionService>(AccountDeletionServiceToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock, profiles: ProfileService, queryLogs: QueryLogEraser | null) =>
        new AccountDeletionService({
          uow,
          nodes: accountNodesRevocation,
          clock,
          coolingOffDays: accounts.deletionCoolingOffDays,
          publishProfile: (tx, profile) => profiles.publish(tx, profile),
          queryLogs,
        }),
      [UnitOfWork, Clock, ProfileServiceToken, OptionalQueryLogEraser],
    );
  });
}
