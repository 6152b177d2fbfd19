import type { DdnsUpdateUrl, LinkedIp } from '@svc/domain';
import { type IfMatchOptions, ifMatchHeaders } from '../../etag.js';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { LinkedIpCreateRequest } from '../../profiles.types.js';
import type { CreateOptions, Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/** Options of {@link LinkedIpsResource.list}. */
export interface LinkedIpListOptions {
  /** Page size, 1 to 200 (default 50); iteration still returns every link, page after page. */
  limit?: number;
}

/**
 * A profile's linked IPv4 addresses and their DDNS update URLs, `/v1/profiles/{id}/linked-ips` (spec 1.5,
 * 4.4): plain DNS from a linked address resolves with the profile. Linking and unlinking are profile writes
 * (the version goes up by one), so they take `ifMatch`.
 */
export class LinkedIpsResource {
  constructor(private readonly transport: Transport) {}

  /** GET …/linked-ips (scope profiles:read), newest first, auto-paging. */
  list(id: string, options: LinkedIpListOptions = {}): Paginator<LinkedIp> {
    return listPages<LinkedIp>(this.transport, profilePath(id, 'linked-ips'), 'linked_ips', {
      limit: options.limit,
    });
  }

  /**
   * POST …/linked-ips (scope profiles:write): `{ip}` links that IPv4 address, `{ddns: true}` creates an empty
   * slot that its DDNS update URL sets. Sent from the address itself, the link is `active` (published, and
   * identifying that network's plain DNS); from anywhere else it is a `pending` claim whose `proof_url` must be
   * called from the address within 24 hours. Throws ApiError 409 `ip_conflict` when the address is actively
   * linked to any profile already, 403 `email_unverified` until the account's address is verified, 412
   * `version_mismatch` when `ifMatch` is stale.
   */
  async create(
    id: string,
    request: LinkedIpCreateRequest,
    options: CreateOptions & IfMatchOptions = {},
  ): Promise<LinkedIp> {
    return (
      await this.transport.send<LinkedIp>({
        method: 'POST',
        path: profilePath(id, 'linked-ips'),
        body: request,
        headers: ifMatchHeaders(options.ifMatch),
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      })
    ).data;
  }

  /** GET …/linked-ips/{linkId} (scope profiles:read). */
  async get(id: string, linkId: string): Promise<LinkedIp> {
    return (await this.transport.send<LinkedIp>({ method: 'GET', path: linkPath(id, linkId) })).data;
  }

  /** DELETE …/linked-ips/{linkId} (scope profiles:write): unlinks; its DDNS update URL stops with it. */
  async delete(id: string, linkId: string, options: IfMatchOptions = {}): Promise<void> {
    await this.transport.send({
      method: 'DELETE',
      path: linkPath(id, linkId),
      headers: ifMatchHeaders(options.ifMatch),
    });
  }

  /**
   * GET …/linked-ips/{linkId}/ddns (scope profiles:write): the current update URL. It is a credential: a GET
   * on it (`client.ddns.update(url)`, or a router's DDNS client) sets the link to the caller's IPv4 address,
   * proven. Throws ApiError 403 `email_unverified` until the account's address is verified.
   */
  async ddnsUrl(id: string, linkId: string): Promise<DdnsUpdateUrl> {
    return (await this.transport.send<DdnsUpdateUrl>({ method: 'GET', path: `${linkPath(id, linkId)}/ddns` }))
      .data;
  }

  /**
   * POST …/linked-ips/{linkId}/ddns (scope profiles:write): a new update URL; the previous one stops at once.
   * The profile's version does not change. Not retried: a repeat would rotate again. Throws ApiError 403
   * `email_unverified` until the account's address is verified.
   */
  async rotateDdns(id: string, linkId: string): Promise<DdnsUpdateUrl> {
    return (
      await this.transport.send<DdnsUpdateUrl>({ method: 'POST', path: `${linkPath(id, linkId)}/ddns` })
    ).data;
  }
}

function linkPath(id: string, linkId: string): string {
  return profilePath(id, 'linked-ips', encodeURIComponent(linkId));
}
