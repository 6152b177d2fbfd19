import type { DeviceRecord, DeviceStore } from '../devices/device.ports.js';

/** Devices read at once for their display names; a profile rarely has more. */
const DEVICE_PAGE = 500;

/** The display names (device registry, spec 2.5) that log rows and top_devices show for device ids. */
export class DeviceDisplayNames {
  constructor(private readonly devices: Pick<DeviceStore, 'find' | 'list'>) {}

  /**
   * The first page of the profile's devices, started while the store reads the rows (the two run at once, the
   * registry on the main thread, the store on its own): nearly every page of rows names some device. Settled
   * quietly when no row needs it or the rows fail first; whoever uses it awaits it and sees its error.
   */
  firstPage(profileId: string): Promise<DeviceRecord[]> {
    const page = this.devices.list(profileId, { limit: DEVICE_PAGE, after: null });
    page.catch(() => undefined);
    return page;
  }

  /**
   * Display names of the devices among `deviceIds` that have one (device registry, spec 2.5): one read of the
   * profile's devices (`page` when already started), and single lookups only for devices beyond it.
   */
  async namesOf(
    profileId: string,
    deviceIds: readonly string[],
    page?: Promise<DeviceRecord[]>,
  ): Promise<Map<string, string>> {
    const wanted = new Set(deviceIds.filter((id) => id !== ''));
    const names = new Map<string, string>();
    if (wanted.size === 0) return names;
    const listed = await (page ?? this.devices.list(profileId, { limit: DEVICE_PAGE, after: null }));
    for (const device of listed) {
      if (device.displayName !== null) names.set(device.id, device.displayName);
      wanted.delete(device.id);
    }
    if (listed.length < DEVICE_PAGE) return names;
    for (const id of wanted) {
      const device = await this.devices.find(profileId, id);
      if (device?.displayName != null) names.set(id, device.displayName);
    }
    return names;
  }
}
