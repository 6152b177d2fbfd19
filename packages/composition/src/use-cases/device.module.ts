import { ClickHouseClientSource, ClickHouseDeviceCounts } from '@svc/adapters';
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
  UnavailableDeviceCounts,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import { CursorSealerToken, DeviceServiceToken, ProfileServiceToken } from './use-case.tokens.js';
import type { UseCaseLog } from './use-case-log.js';

/**
 * Binds the device use cases and the sighting recorder; DeviceStore is bound by the storage family. Device
 * counts come from the columnar store's hourly per-device counts when one is bound (before this runs), and
 * are unavailable (null) otherwise.
 */
export function devicesModule(log: UseCaseLog): ContainerModule {
  return new ContainerModule(({ bind, isBound }) => {
    if (isBound(ClickHouseClientSource)) {
      bind<DeviceCounts>(DeviceCounts).toResolvedValue(
        (source: ClickHouseClientSource) =>
          new ClickHouseDeviceCounts(
            () => source.store(),
            (error) => log.warn({ err: error }, 'device counts unavailable'),
          ),
        [ClickHouseClientSource],
      );
    } else {
      bind<DeviceCounts>(DeviceCounts).toConstantValue(new UnavailableDeviceCounts());
    }
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
