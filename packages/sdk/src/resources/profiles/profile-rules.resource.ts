import type { ProfileRules } from '@svc/domain';
import { ApiPromise } from '../../api-promise.js';
import { type IfMatchOptions, ifMatchHeaders } from '../../etag.js';
import type { ProfileRulesRequest } from '../../profiles.types.js';
import type { Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/** A profile's deny, allow and rewrite rules, `/v1/profiles/{id}/rules` (ROUTES.md). */
export class ProfileRulesResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET /v1/profiles/{id}/rules (scope profiles:read), normalised. The body has no version:
   * `(await rules.get(id).withResponse()).etag` is the profile's ETag to send back as `ifMatch`.
   */
  get(id: string): ApiPromise<ProfileRules> {
    return new ApiPromise(
      this.transport.send<ProfileRules>({ method: 'GET', path: profilePath(id, 'rules') }),
    );
  }

  /**
   * PUT /v1/profiles/{id}/rules (scope profiles:write): replaces all three lists in one version bump; a missing
   * list is empty. Answers the rules as stored (lower case, punycode, duplicates dropped). Throws ApiError 422
   * `too_many_rules` beyond the plan's limit, 412 `version_mismatch` when `ifMatch` is stale.
   */
  replace(id: string, rules: ProfileRulesRequest, options: IfMatchOptions = {}): ApiPromise<ProfileRules> {
    return new ApiPromise(
      this.transport.send<ProfileRules>({
        method: 'PUT',
        path: profilePath(id, 'rules'),
        body: rules,
        headers: ifMatchHeaders(options.ifMatch),
      }),
    );
  }
}
