import type { DdnsUpdate } from '@svc/domain';
import type { Transport } from '../transport.js';

/** The DDNS update endpoint, `/v1/ddns/{token}` (spec 4.4): the token is the credential. */
export class DdnsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET /v1/ddns/{token}: sets the linked IP owning the token to this caller's IPv4 address, sent without the
   * client's own credential. Takes the token or the whole update URL of `profiles.linkedIps.ddnsUrl`. Throws
   * ApiError 404 `not_found` for a token that is not live (rotated, unlinked), 422 from an IPv6 caller, 409
   * `ip_conflict` or `profile_suspended`.
   */
  async update(tokenOrUrl: string): Promise<DdnsUpdate> {
    // A URL's last path segment is already escaped as a URL needs; a bare token is escaped here.
    const segment = /^https?:\/\//i.test(tokenOrUrl)
      ? (new URL(tokenOrUrl).pathname.split('/').pop() ?? '')
      : encodeURIComponent(tokenOrUrl);
    return (
      await this.transport.send<DdnsUpdate>({
        method: 'GET',
        path: `/v1/ddns/${segment}`,
        anonymous: true,
      })
    ).data;
  }
}
