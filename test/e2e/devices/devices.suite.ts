import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { deviceAccess } from './devices.access.js';
import { deviceChanges } from './devices.changes.js';
import { useDevicesFixture } from './devices.fixture.js';
import { deviceSightings } from './devices.sightings.js';

/**
 * Devices through HTTP (spec 2.5, 3, 4.3, 6.2, 7): devices appear from resolvers' sightings (recorded through
 * the DeviceSightings binding, as the edge path does), are listed most recently seen first, renamed, kinded,
 * annotated and forgotten with audit entries, refused on suspended profiles and invisible to other
 * organisations.
 */
export function runDevicesSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`devices through HTTP on ${storage} (spec 2.5, 4.3)`, () => {
    const fx = useDevicesFixture(storage);
    deviceSightings(fx);
    deviceChanges(fx);
    deviceAccess(fx);
  });
}
