import { IpaddrRangeClassifier } from '@svc/adapters';
import {
  Clock,
  type CursorSealer,
  KeyedHash,
  LinkedIpService,
  LinkedIpStore,
  ProfileStore,
  type ProfileWriter,
  Random,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { Settings } from '../settings/settings.js';
import { CursorSealerToken, LinkedIpServiceToken, ProfileServiceToken } from './use-case.tokens.js';

/**
 * Binds the linked-IP and DDNS use cases; LinkedIpStore is bound by the storage family. Every change of a
 * profile's links is a versioned write of the profile service, which publishes the addresses in its edge
 * document.
 */
export function linkedIpsModule(settings: Pick<Settings, 'env' | 'http' | 'limits'>): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<LinkedIpService>(LinkedIpServiceToken).toResolvedValue(
      (
        uow: UnitOfWork,
        profiles: ProfileWriter,
        profileStore: ProfileStore,
        store: LinkedIpStore,
        random: Random,
        clock: Clock,
        cursors: CursorSealer,
        keyedHash: KeyedHash,
      ) =>
        new LinkedIpService({
          uow,
          profiles,
          profileStore,
          store,
          random,
          clock,
          cursors,
          keyedHash,
          baseUrl: settings.http.baseUrl,
          ranges: new IpaddrRangeClassifier(),
          policy: { ...settings.limits.linkedIps, documentationRanges: settings.env === 'development' },
        }),
      [
        UnitOfWork,
        ProfileServiceToken,
        ProfileStore,
        LinkedIpStore,
        Random,
        Clock,
        CursorSealerToken,
        KeyedHash,
      ],
    );
  });
}
