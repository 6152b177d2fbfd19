import type { ProfileSuspension } from '@svc/domain';
import type { ProfileSuspensionRequest } from '../../admin.types.js';
import type { Transport } from '../../transport.js';

/** Profile suspension of any organisation's profile, `/v1/admin/profiles/{id}` (scope admin, spec 3). */
export class ProfileSuspensionsResource {
  constructor(private readonly transport: Transport) {}

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
