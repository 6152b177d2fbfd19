import type { Schedule } from '@svc/domain';
import { ApiPromise } from '../../api-promise.js';
import { type IfMatchOptions, ifMatchHeaders } from '../../etag.js';
import type { ScheduleRequest } from '../../profiles.types.js';
import type { Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/**
 * A profile's named weekly schedules, `/v1/profiles/{id}/schedules` (issue 38), read in the profile's
 * `settings.time_zone`.
 */
export class ProfileSchedulesResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET /v1/profiles/{id}/schedules (scope profiles:read). The body has no version:
   * `(await schedules.get(id).withResponse()).etag` is the profile's ETag.
   */
  get(id: string): ApiPromise<Schedule[]> {
    return new ApiPromise(
      this.transport
        .send<{ schedules: Schedule[] }>({ method: 'GET', path: profilePath(id, 'schedules') })
        .then((response) => ({ ...response, data: response.data.schedules })),
    );
  }

  /**
   * PUT /v1/profiles/{id}/schedules (scope profiles:write): replaces every schedule in one version bump.
   * Throws ApiError 422 `validation_failed` naming the field (`schedules.0.windows.1.end`, a repeated name …),
   * 412 `version_mismatch` when `ifMatch` is stale.
   */
  replace(
    id: string,
    schedules: readonly ScheduleRequest[],
    options: IfMatchOptions = {},
  ): ApiPromise<Schedule[]> {
    return new ApiPromise(
      this.transport
        .send<{ schedules: Schedule[] }>({
          method: 'PUT',
          path: profilePath(id, 'schedules'),
          body: { schedules },
          headers: ifMatchHeaders(options.ifMatch),
        })
        .then((response) => ({ ...response, data: response.data.schedules })),
    );
  }
}
