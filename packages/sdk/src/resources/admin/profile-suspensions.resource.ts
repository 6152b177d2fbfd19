import type { OperatorProfileMatch, ProfileSuspension } from '@svc/domain';
import type { ProfileSuspensionRequest } from '../../admin.types.js';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { Transport } from '../../transport.js';

/**
 * Profiles of every organisation: found with `/v1/admin/profiles?q=`, suspended and reinstated at
 * `/v1/admin/profiles/{id}` (scope admin, spec 3).
 */
export class ProfileSuspensionsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET /v1/admin/profiles?q=: live profiles whose name contains `query` (case-insensitive), whose id or
   * organisation id is `query`, or of an organisation with an account whose email contains it; newest first,
   * auto-paging. Throws ApiError 422 for an empty or over-long query.
   */
  search(query: string, options: { limit?: number } = {}): Paginator<OperatorProfileMatch> {
    return listPages<OperatorProfileMatch>(this.transport, '/v1/admin/profiles', 'profiles', {
      q: query,
      limit: options.limit,
    });
  }

  /** GET /v1/admin/profiles/{id}: the suspension state, with the operator-only reason. */
  async get(id: string): Promise<ProfileSuspension> {
    return (await this.transport.send<ProfileSuspension>({ method: 'GET', path: suspensionPath(id) })).data;
  }

  /** PATCH /v1/admin/profiles/{id}: `{suspended: true, reason}` suspends, `{suspended: false}` reinstates. */
  async update(id: string, request: ProfileSuspensionRequest): Promise<ProfileSuspension> {
    return (
      await this.transport.send<ProfileSuspension>({
        method: 'PATCH',
        path: suspensionPath(id),
        body: request,
      })
    ).data;
  }
}

function suspensionPath(id: string): string {
  return `/v1/admin/profiles/${encodeURIComponent(id)}`;
}
