import type { DevicePolicy } from '@svc/domain';
import { ApiPromise } from '../../api-promise.js';
import { type IfMatchOptions, ifMatchHeaders } from '../../etag.js';
import type { DevicePolicyRequest } from '../../profiles.types.js';
import type { CreateOptions, Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/** The path of one device of a profile, with `tail` after it. */
export function devicePath(id: string, deviceId: string, ...tail: string[]): string {
  return profilePath(id, 'devices', encodeURIComponent(deviceId), ...tail);
}

/**
 * What a device overrides of its profile's policy, `/v1/profiles/{id}/devices/{deviceId}/policy` (issue 38).
 * Writes are versioned writes of the profile: its ETag, `ifMatch`, 409 `profile_suspended`.
 */
export class DevicePolicyResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET …/policy (scope profiles:read): absent fields are inherited; `{}` inherits everything. 404 for a
   * device the profile has not seen. `(await policy.get(id, device).withResponse()).etag` is the profile's ETag.
   */
  get(id: string, deviceId: string): ApiPromise<DevicePolicy> {
    return new ApiPromise(
      this.transport.send<DevicePolicy>({ method: 'GET', path: devicePath(id, deviceId, 'policy') }),
    );
  }

  /**
   * PUT …/policy (scope profiles:write): replaces the device's overrides. Throws ApiError 422
   * `validation_failed` naming a bedtime or assignment schedule the profile lacks, or an unknown service,
   * category or list. Sends an Idempotency-Key reused across retries.
   */
  replace(
    id: string,
    deviceId: string,
    policy: DevicePolicyRequest,
    options: IfMatchOptions & CreateOptions = {},
  ): ApiPromise<DevicePolicy> {
    return new ApiPromise(
      this.transport.send<DevicePolicy>({
        method: 'PUT',
        path: devicePath(id, deviceId, 'policy'),
        body: policy,
        headers: ifMatchHeaders(options.ifMatch),
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      }),
    );
  }
}
