import {
  Clock,
  type CursorSealer,
  DeviceCounts,
  DeviceService,
  DeviceSightingRecorder,
  DeviceSightings,
  DeviceStore,
  KeyedHash,
  type ProfileService,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import { CursorSealerToken, DeviceServiceToken, ProfileServiceToken } from './use-case.tokens.js';

/**
 * Binds the device use cases and the sighting recorder; DeviceStore and DeviceCounts (the columnar store's
 * hourly per-device counts, or always unavailable without one) are bound by the storage family.
 */
export function devicesModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<DeviceSightings>(DeviceSightings).toResolvedValue(
      (uow: UnitOfWork, hash: KeyedHash) =>
        new DeviceSightingRecorder({ uow, sha256: (data) => hash.sha256(data) }),
      [UnitOfWork, KeyedHash],
    );
    bind<DeviceService>(DeviceServiceToken).toResolvedValue(
      (
        uow: UnitOfWork,
        profiles: ProfileService,
        store: DeviceStore,
        counts: DeviceCounts,
        clock: Clock,
        cursors: CursorSealer,
      ) => new DeviceService({ uow, profiles, store, counts, clock, cursors }),
      [UnitOfWork, ProfileServiceToken, DeviceStore, DeviceCounts, Clock, CursorSealerToken],
    );
  });
}
