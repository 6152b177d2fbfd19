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
import type { Container } from 'inversify';
import { CursorSealerToken, DeviceServiceToken, ProfileServiceToken } from './tokens.js';

/**
 * Binds the device use cases and the sighting recorder; DeviceStore is bound by the storage family. Device
 * counts come from the query-log store, which is not wired yet: until it is, counts are unavailable (null).
 */
export function bindDevices(container: Container): void {
  container.bind<DeviceCounts>(DeviceCounts).toConstantValue(new UnavailableDeviceCounts());
  container
    .bind<DeviceSightings>(DeviceSightings)
    .toResolvedValue(
      (uow: UnitOfWork, hash: KeyedHash) =>
        new DeviceSightingRecorder({ uow, sha256: (data) => hash.sha256(data) }),
      [UnitOfWork, KeyedHash],
    );
  container
    .bind<DeviceService>(DeviceServiceToken)
    .toResolvedValue(
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
}
