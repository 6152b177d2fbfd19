import type { ProfileSchedules, Schedule } from '@svc/domain';
import { ApiPromise } from '../../api-promise.js';
import { type IfMatchOptions, ifMatchHeaders } from '../../etag.js';
import type { ProfileSchedulesRequest, ScheduleRequest } from '../../profiles.types.js';
import type { Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/** What `replace` may set besides the schedules; each absent one is cleared, as the API does. */
export interface ScheduleReplaceOptions extends IfMatchOptions {
  /** One of the schedules as the profile's bedtime, or null for none. */
  bedtime?: ProfileSchedulesRequest['bedtime'];
  /** What each schedule limits or lifts. */
  assignments?: ProfileSchedulesRequest['assignments'];
}

/**
 * A profile's named weekly schedules, `/v1/profiles/{id}/schedules` (issue 38), read in the profile's
 * `settings.time_zone`, with its bedtime and what each schedule limits or lifts.
 */
export class ProfileSchedulesResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET /v1/profiles/{id}/schedules (scope profiles:read): the schedules alone (`getAll` for the bedtime and
   * assignments too). `(await schedules.get(id).withResponse()).etag` is the profile's ETag.
   */
  get(id: string): ApiPromise<Schedule[]> {
    return new ApiPromise(
      this.transport
        .send<ProfileSchedules>({ method: 'GET', path: profilePath(id, 'schedules') })
        .then((response) => ({ ...response, data: response.data.schedules })),
    );
  }

  /** GET /v1/profiles/{id}/schedules (scope profiles:read): schedules, bedtime and assignments. */
  getAll(id: string): ApiPromise<ProfileSchedules> {
    return new ApiPromise(
      this.transport.send<ProfileSchedules>({ method: 'GET', path: profilePath(id, 'schedules') }),
    );
  }

  /**
   * PUT /v1/profiles/{id}/schedules (scope profiles:write): replaces every schedule, the bedtime and the
   * assignments in one version bump; a bedtime or assignments not given are cleared (read them with `getAll`
   * and pass them to keep them). Throws ApiError 422 `validation_failed` naming the field
   * (`schedules.0.windows.1.end`, `assignments.0.target.id` for an unknown service …), 412 `version_mismatch`
   * when `ifMatch` is stale. Resolves to the schedules; `withResponse()` has the rest.
   */
  replace(
    id: string,
    schedules: readonly ScheduleRequest[],
    options: ScheduleReplaceOptions = {},
  ): ApiPromise<Schedule[]> {
    const { bedtime, assignments } = options;
    return new ApiPromise(
      this.transport
        .send<ProfileSchedules>({
          method: 'PUT',
          path: profilePath(id, 'schedules'),
          body: {
            schedules,
            ...(bedtime === undefined ? {} : { bedtime }),
            ...(assignments === undefined ? {} : { assignments }),
          },
          headers: ifMatchHeaders(options.ifMatch),
        })
        .then((response) => ({ ...response, data: response.data.schedules })),
    );
  }
}
