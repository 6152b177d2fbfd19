import {
  Clock,
  type CursorSealer,
  DevicePolicyService,
  findBlocklist,
  ProfileCommitter,
  ProfilePolicyService,
  ProfileService,
  ProfileStore,
  Random,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { Settings } from '../settings/settings.js';
import { checkParentalReferences } from './catalogue-checks.js';
import {
  CursorSealerToken,
  DevicePolicyServiceToken,
  ProfilePolicyServiceToken,
  ProfileServiceToken,
} from './use-case.tokens.js';

/** Binds the profile use cases; ProfileStore and ProfileCommitter are bound by the storage family. */
export function profilesModule(settings: Pick<Settings, 'resolver' | 'limits'>): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<ProfileService>(ProfileServiceToken).toResolvedValue(
      (
        uow: UnitOfWork,
        store: ProfileStore,
        committer: ProfileCommitter,
        random: Random,
        clock: Clock,
        cursors: CursorSealer,
      ) =>
        new ProfileService({
          uow,
          store,
          committer,
          random,
          clock,
          cursors,
          resolver: settings.resolver,
          rulesLimit: settings.limits.rulesPerProfile,
          checkParental: checkParentalReferences,
          ecsOperatorCap: settings.limits.ecsOperatorCap,
          isCataloguedList: (listId) => findBlocklist(listId) !== undefined,
          webhookSubscribed: (orgId, type) => uow.run((tx) => tx.webhooks.subscribed(orgId, type)),
        }),
      [UnitOfWork, ProfileStore, ProfileCommitter, Random, Clock, CursorSealerToken],
    );
    bind<ProfilePolicyService>(ProfilePolicyServiceToken).toResolvedValue(
      (uow: UnitOfWork, profiles: ProfileService, clock: Clock, random: Random) =>
        new ProfilePolicyService({
          uow,
          profiles,
          clock,
          random,
          isCataloguedList: (listId) => findBlocklist(listId) !== undefined,
        }),
      [UnitOfWork, ProfileServiceToken, Clock, Random],
    );
    bind<DevicePolicyService>(DevicePolicyServiceToken).toResolvedValue(
      (uow: UnitOfWork, profiles: ProfileService, clock: Clock) =>
        new DevicePolicyService({
          uow,
          profiles,
          clock,
          isCataloguedList: (listId) => findBlocklist(listId) !== undefined,
        }),
      [UnitOfWork, ProfileServiceToken, Clock],
    );
  });
}
