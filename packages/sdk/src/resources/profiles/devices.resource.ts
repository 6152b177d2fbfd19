import type { Device, ProfilePause } from '@svc/domain';
import { ApiPromise } from '../../api-promise.js';
import { type IfMatchOptions, ifMatchHeaders } from '../../etag.js';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { DevicePatchRequest } from '../../profiles.types.js';
import type { CreateOptions, Transport } from '../../transport.js';
import { DevicePolicyResource, devicePath } from './device-policy.resource.js';
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
  /** What a device overrides of its profile's policy (issue 38). */
  readonly policy: DevicePolicyResource;

  constructor(private readonly transport: Transport) {
    this.policy = new DevicePolicyResource(transport);
  }

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

  /**
   * POST …/devices/{deviceId}/pause (scope profiles:write): turns the profile's blocking off for this device
   * for `minutes` (1 to 1440) from now, at every edge and node. Answers when it ends (exclusive). Sends an
   * Idempotency-Key reused across retries, so a retried pause does not move the end.
   */
  pause(
    id: string,
    deviceId: string,
    minutes: number,
    options: IfMatchOptions & CreateOptions = {},
  ): ApiPromise<ProfilePause> {
    return new ApiPromise(
      this.transport.send<ProfilePause>({
        method: 'POST',
        path: devicePath(id, deviceId, 'pause'),
        body: { minutes },
        headers: ifMatchHeaders(options.ifMatch),
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      }),
    );
  }

  /** DELETE …/devices/{deviceId}/pause (scope profiles:write): ends the device's pause; resolves the same when not paused. */
  async resume(id: string, deviceId: string, options: IfMatchOptions = {}): Promise<void> {
    await this.transport.send({
      method: 'DELETE',
      path: devicePath(id, deviceId, 'pause'),
      headers: ifMatchHeaders(options.ifMatch),
    });
  }
}
