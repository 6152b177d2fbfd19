import type { ProfileLists } from '@svc/domain';
import { ApiPromise } from '../../api-promise.js';
import { type IfMatchOptions, ifMatchHeaders } from '../../etag.js';
import type { Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/** The blocklists a profile enables by id, `/v1/profiles/{id}/lists` (ids from `client.catalogue.lists()`). */
export class ProfileListsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET /v1/profiles/{id}/lists (scope profiles:read): the enabled list ids. The body has no version:
   * `(await lists.get(id).withResponse()).etag` is the profile's ETag.
   */
  get(id: string): ApiPromise<number[]> {
    return new ApiPromise(
      this.transport
        .send<ProfileLists>({ method: 'GET', path: profilePath(id, 'lists') })
        .then((response) => ({ ...response, data: response.data.lists })),
    );
  }

  /**
   * PUT /v1/profiles/{id}/lists (scope profiles:write): sets the enabled list ids, answering them as stored.
   * Throws ApiError 422 `unknown_list` for ids not in the catalogue, 412 `version_mismatch` when `ifMatch` is
   * stale.
   */
  replace(id: string, lists: readonly number[], options: IfMatchOptions = {}): ApiPromise<number[]> {
    return new ApiPromise(
      this.transport
        .send<ProfileLists>({
          method: 'PUT',
          path: profilePath(id, 'lists'),
          body: { lists },
          headers: ifMatchHeaders(options.ifMatch),
        })
        .then((response) => ({ ...response, data: response.data.lists })),
    );
  }
}
