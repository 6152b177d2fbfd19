import type { Allowance } from '@svc/domain';
import { ApiPromise } from '../../api-promise.js';
import { type IfMatchOptions, ifMatchHeaders } from '../../etag.js';
import type { AllowanceCreateRequest } from '../../profiles.types.js';
import type { CreateOptions, Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/**
 * Timed allowances, `/v1/profiles/{id}/allowances` (issue 38): a name allowed, or a parental service unblocked,
 * for 1 to 1440 minutes; the edges and nodes end each by their own clocks.
 */
export class ProfileAllowancesResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/profiles/{id}/allowances (scope profiles:read): those still running, soonest to end first. */
  list(id: string): ApiPromise<Allowance[]> {
    return new ApiPromise(
      this.transport
        .send<{ allowances: Allowance[] }>({ method: 'GET', path: profilePath(id, 'allowances') })
        .then((response) => ({ ...response, data: response.data.allowances })),
    );
  }

  /**
   * POST /v1/profiles/{id}/allowances (scope profiles:write). Throws ApiError 422 `validation_failed` (minutes
   * out of 1…1440, both or neither of domain and service, an unknown service), 422 `too_many_allowances` when
   * 100 run, 409 `profile_suspended`. Sends an Idempotency-Key reused across retries, so a retry creates one.
   */
  create(
    id: string,
    request: AllowanceCreateRequest,
    options: IfMatchOptions & CreateOptions = {},
  ): ApiPromise<Allowance> {
    return new ApiPromise(
      this.transport.send<Allowance>({
        method: 'POST',
        path: profilePath(id, 'allowances'),
        body: request,
        headers: ifMatchHeaders(options.ifMatch),
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      }),
    );
  }

  /** DELETE /v1/profiles/{id}/allowances/{allowanceId} (scope profiles:write): ends it now; 404 once ended. */
  async delete(id: string, allowanceId: string, options: IfMatchOptions = {}): Promise<void> {
    await this.transport.send({
      method: 'DELETE',
      path: profilePath(id, `allowances/${encodeURIComponent(allowanceId)}`),
      headers: ifMatchHeaders(options.ifMatch),
    });
  }
}
