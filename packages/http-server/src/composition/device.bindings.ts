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
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { CursorSealerToken, DeviceServiceToken, LoggerToken, ProfileServiceToken } from './tokens.js';

/**
 * Binds the device use cases and the sighting recorder; DeviceStore is bound by the storage family. Device
 * counts come from the columnar store's hourly per-device counts when one is bound (before this runs), and
 * are unavailable (null) otherwise.
 */
export function bindDevices(container: Container): void {
  if (container.isBound(ClickHouseClientSource)) {
    container.bind<DeviceCounts>(DeviceCounts).toResolvedValue(
      (source: ClickHouseClientSource, logger: Logger) =>
        new ClickHouseDeviceCounts(
          () => source.store(),
          (error) => logger.warn({ err: error }, 'device counts unavailable'),
        ),
      [ClickHouseClientSource, LoggerToken],
    );
  } else {
    container.bind<DeviceCounts>(DeviceCounts).toConstantValue(new UnavailableDeviceCounts());
  }
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
