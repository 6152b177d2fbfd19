import type { Device } from '@svc/domain';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { DevicePatchRequest } from '../../profiles.types.js';
import type { Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/** Options of {@link DevicesResource.list}. */
export interface DeviceListOptions {
  /** Page size, 1 to 200 (default 50); iteration still returns every device, page after page. */
  limit?: number;
}

/**
 * The devices the resolvers have seen for a profile, `/v1/profiles/{id}/devices` (spec 2.5, 4.3). Device
 * changes do not change the profile's version; a suspended profile refuses them (409 `profile_suspended`).
 */
export class DevicesResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET …/devices (scope profiles:read), most recently seen first, auto-paging. A device seen again while
   * paging moves to the front, so a walk already past it may skip it.
   */
  list(id: string, options: DeviceListOptions = {}): Paginator<Device> {
    return listPages<Device>(this.transport, profilePath(id, 'devices'), 'devices', { limit: options.limit });
  }

  /** GET …/devices/{deviceId} (scope profiles:read). */
  async get(id: string, deviceId: string): Promise<Device> {
    return (await this.transport.send<Device>({ method: 'GET', path: devicePath(id, deviceId) })).data;
  }

  /**
   * PATCH …/devices/{deviceId} (scope profiles:write): names, kinds or annotates the device; absent fields are
   * unchanged, null or '' clears display_name or notes. The answer's 24-hour counts are null.
   */
  async update(id: string, deviceId: string, patch: DevicePatchRequest): Promise<Device> {
    return (
      await this.transport.send<Device>({ method: 'PATCH', path: devicePath(id, deviceId), body: patch })
    ).data;
  }

  /**
   * DELETE …/devices/{deviceId} (scope profiles:write): forgets its display name, kind and notes; logs keep
   * its id, and the device appears as new when seen again.
   */
  async forget(id: string, deviceId: string): Promise<void> {
    await this.transport.send({ method: 'DELETE', path: devicePath(id, deviceId) });
  }
}

function devicePath(id: string, deviceId: string): string {
  return profilePath(id, 'devices', encodeURIComponent(deviceId));
}
