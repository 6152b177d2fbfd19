import { formatIpAddress, parseIpAddress, unmapIpv4 } from '../ecs/ecs.js';
import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { ProfileStore, ProfileWriter } from '../profiles/profile.ports.js';
import { assertWritable } from '../profiles/profile.service.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError, notFound, validationFailed } from '../shared/domain-error.js';
import { assertEmailVerified } from '../shared/email-verified.js';
import type { KeyedHash } from '../shared/keyed-hash.ports.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { IpRangeClassifier, LinkedIpRecord, LinkedIpScope, LinkedIpStore } from './linked-ip.ports.js';
import type { DdnsUpdate, LinkedIp, LinkedIpCreate } from './linked-ip.schemas.js';
import { DdnsPurpose, ddnsLookupOf, ddnsTokenOf, isExpiredClaim, pendingCutoff } from './linked-ip-proof.js';

/** The acting account of a linked-IP change: its organisation, and whether its address is verified. */
export interface LinkedIpActor {
  orgId: string;
  /** Null until the account's address is verified: 403 email_unverified for every linked-IP change. */
  emailVerifiedAt: Date | null;
}

/** Every DDNS token is a base64url HMAC-SHA-256 (43 characters); anything else is unknown without a lookup. */
const DDNS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The deployment's rules for what may be linked (settings, README). */
export interface LinkedIpPolicy {
  /** Links (DDNS slots included) one profile may have: 422 too_many_linked_ips beyond. */
  perProfile: number;
  /** Links one account (its organisation) may have over all its profiles: 422 too_many_linked_ips beyond. */
  perAccount: number;
  /**
   * RFC 5737's example networks (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) are linkable: in development
   * only, where examples and tests use them; no real client has such an address.
   */
  documentationRanges: boolean;
}

/** What the linked-IP use cases are built from. */
export interface LinkedIpDependencies {
  uow: ScopedUnitOfWork<LinkedIpScope>;
  /** Every change to a profile's links is one of its versioned writes. */
  profiles: ProfileWriter;
  profileStore: ProfileStore;
  store: LinkedIpStore;
  random: Random;
  clock: Clock;
  cursors: CursorSealer;
  keyedHash: KeyedHash;
  /** `{base_url}` of the spec, for update URLs. */
  baseUrl: string;
  ranges: IpRangeClassifier;
  policy: LinkedIpPolicy;
}

/** Thrown inside a DDNS write found to change nothing, so the write rolls back instead of bumping the version. */
class DdnsAddressUnchanged extends Error {}

function ipConflict(): DomainError {
  return new DomainError('ip_conflict', 'This address is already linked to a profile.', {
    fieldErrors: [{ field: 'ip', message: 'is already linked to a profile' }],
  });
}

/** How a refused range is named to the caller. */
const RANGE_NAMES: Record<string, string> = {
  private: 'a private range (RFC 1918)',
  loopback: 'the loopback range',
  linkLocal: 'the link-local range',
  carrierGradeNat: 'the carrier-grade NAT range (RFC 6598)',
  multicast: 'the multicast range',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address',
  documentation: 'a range reserved for documentation (RFC 5737)',
};

/** The IPv4 address of a caller's address (IPv4-mapped IPv6 included), or null for an IPv6 caller. */
function ipv4Of(address: string): string | null {
  const parsed = parseIpAddress(address);
  if (parsed === null) return null;
  const unmapped = unmapIpv4(parsed);
  return unmapped.family === 4 ? formatIpAddress(unmapped) : null;
}

/**
 * The caller's IPv4 address: an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is IPv4; any other IPv6 caller is
 * 422 naming `ip`, since only IPv4 addresses are linked.
 */
function callerIpv4(address: string): string {
  const candidate = ipv4Of(address);
  if (candidate === null) {
    throw validationFailed([
      {
        field: 'ip',
        message:
          'the caller’s address is not IPv4; send the update over IPv4 (only IPv4 addresses are linked)',
      },
    ]);
  }
  return candidate;
}

/**
 * Linked IPv4 addresses and their DDNS update URLs (spec 1.5, 4.4, 4.13). Linking, unlinking and a DDNS update
 * that moves an address are profile writes: one version bump, republished to the edge. A link is active
 * (published, attributing the address's queries) only once the address is proven: the request linking it came
 * from it, or its DDNS update URL was called from it; otherwise it is pending for 24 hours. An address is
 * actively linked to at most one profile anywhere (409 ip_conflict); a pending claim blocks nobody.
 */
export class LinkedIpService {
  constructor(private readonly deps: LinkedIpDependencies) {}

  /** The public record of a stored link. */
  view(record: LinkedIpRecord): LinkedIp {
    return {
      id: record.id,
      ip: record.ip,
      ddns: record.ddns,
      state: record.state,
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
    };
  }

  /**
   * The answer to the POST that created a link: a pending address claim carries its proof URL (its DDNS
   * update URL), to be called from the claimed address within 24 hours.
   */
  createdView(record: LinkedIpRecord): LinkedIp {
    const view = this.view(record);
    if (record.state === 'pending' && record.ip !== null) {
      return { ...view, proof_url: this.urlOf(record.id, record.ddnsGeneration) };
    }
    return view;
  }

  async list(
    orgId: string,
    profileId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<{ linked_ips: LinkedIpRecord[]; next_cursor: string | null }> {
    if ((await this.deps.profileStore.find(orgId, profileId)) === null) throw notFound('profile');
    await this.dropExpiredClaims(orgId);
    const list = `linked-ips:${profileId}`;
    const page = await pageNewestFirst(this.deps.cursors, list, limit, cursor, (keyset) =>
      this.deps.store.list(orgId, profileId, keyset),
    );
    return { linked_ips: page.items, next_cursor: page.nextCursor };
  }

  async get(orgId: string, profileId: string, linkId: string): Promise<LinkedIpRecord> {
    const link = await this.deps.store.find(orgId, profileId, linkId);
    if (link === null || isExpiredClaim(link, this.deps.clock.now())) throw notFound('linked IP');
    return link;
  }

  /**
   * POST: links an address, or creates an empty DDNS slot. Only a public unicast address is linked (422
   * naming `ip` otherwise: a private, loopback or reserved address is no client of the edge, and linking one
   * would claim it for every profile), and within the caps per profile and per account (422
   * too_many_linked_ips). The address is proven, and the link active, when `callerAddress` (the client as the
   * API sees it behind its trusted proxies) is that address; otherwise the link is pending and blocks nobody.
   * The account needs a verified address (403 email_unverified): its links outlive any session.
   */
  async link(
    actor: LinkedIpActor,
    profileId: string,
    request: LinkedIpCreate,
    callerAddress: string,
    expectedVersion?: number,
  ): Promise<LinkedIpRecord> {
    assertEmailVerified(actor);
    const { orgId } = actor;
    if (request.ip !== undefined) this.assertLinkable(request.ip, 'is');
    const proven = request.ip !== undefined && ipv4Of(callerAddress) === request.ip;
    let created: LinkedIpRecord | undefined;
    await this.deps.profiles.write(this.deps.uow, orgId, profileId, expectedVersion, async (current, tx) => {
      const now = this.deps.clock.now();
      // Expired claims count against no cap.
      await tx.linkedIps.deletePending(orgId, pendingCutoff(now));
      this.assertUnderCaps(await tx.linkedIps.countForCaps(orgId, profileId));
      const id = this.deps.random.uuid();
      const link: LinkedIpRecord = {
        id,
        orgId,
        profileId,
        ip: request.ip ?? null,
        state: proven ? 'active' : 'pending',
        ddns: request.ddns === true,
        ddnsGeneration: 1,
        ddnsLookup: this.lookupOf(id, 1),
        createdAt: now,
        updatedAt: now,
      };
      if ((await tx.linkedIps.insert(link)) === 'ip_conflict') throw ipConflict();
      created = link;
      return current;
    });
    if (created === undefined) throw new Error('the profile write committed without running its change');
    return created;
  }

  /** DELETE: unlinks the address (its DDNS URL stops with it). */
  async unlink(orgId: string, profileId: string, linkId: string, expectedVersion?: number): Promise<void> {
    await this.deps.profiles.write(this.deps.uow, orgId, profileId, expectedVersion, async (current, tx) => {
      if (!(await tx.linkedIps.delete(orgId, profileId, linkId))) throw notFound('linked IP');
      return current;
    });
  }

  /**
   * GET …/ddns: the link's current update URL, derived again from the server key. A credential that moves the
   * link: the account needs a verified address (403 email_unverified).
   */
  async updateUrl(actor: LinkedIpActor, profileId: string, linkId: string): Promise<string> {
    assertEmailVerified(actor);
    const link = await this.get(actor.orgId, profileId, linkId);
    return this.urlOf(link.id, link.ddnsGeneration);
  }

  /**
   * POST …/ddns: a new token; the old URL stops at once. It changes nothing the edge sees, so the profile's
   * version stays, but it is a change all the same: refused on a suspended profile, and for an unverified
   * account (403 email_unverified).
   */
  async rotateUpdateUrl(actor: LinkedIpActor, profileId: string, linkId: string): Promise<string> {
    assertEmailVerified(actor);
    const { orgId } = actor;
    return this.deps.uow.run(async (tx) => {
      const profile = await tx.profiles.find(orgId, profileId, { forUpdate: true });
      if (profile === null) throw notFound('profile');
      assertWritable(profile);
      const link = await tx.linkedIps.find(orgId, profileId, linkId);
      if (link === null || isExpiredClaim(link, this.deps.clock.now())) throw notFound('linked IP');
      const generation = link.ddnsGeneration + 1;
      await tx.linkedIps.setDdnsToken(link.id, generation, this.lookupOf(link.id, generation));
      return this.urlOf(link.id, generation);
    });
  }

  /**
   * GET /v1/ddns/{token}: sets the link owning `token` to the caller's IPv4 address, which the call proves:
   * the link becomes active. Unknown tokens (and expired claims) are 404; an address actively linked elsewhere
   * is 409 ip_conflict; a suspended profile is 409 profile_suspended.
   */
  async updateFromDdns(token: string, callerAddress: string): Promise<DdnsUpdate> {
    if (!DDNS_TOKEN_PATTERN.test(token)) throw notFound('DDNS token');
    const lookup = this.deps.keyedHash.mac(DdnsPurpose.lookup, token);
    const link = await this.deps.store.findByDdnsLookup(lookup);
    if (link === null || isExpiredClaim(link, this.deps.clock.now())) throw notFound('DDNS token');
    const ip = callerIpv4(callerAddress);
    this.assertLinkable(ip, 'the caller’s address is');
    if (link.ip === ip && link.state === 'active') {
      const profile = await this.deps.profileStore.find(link.orgId, link.profileId);
      if (profile === null) throw notFound('DDNS token');
      assertWritable(profile);
      return { ip, changed: false };
    }
    try {
      await this.deps.profiles.write(
        this.deps.uow,
        link.orgId,
        link.profileId,
        undefined,
        async (current, tx) => {
          // Read again under the profile's lock: the token may have been rotated or the link removed since.
          const locked = await tx.linkedIps.findByDdnsLookup(lookup);
          if (locked === null) throw notFound('DDNS token');
          if (locked.ip === ip && locked.state === 'active') throw new DdnsAddressUnchanged();
          if ((await tx.linkedIps.setIp(locked.id, ip, this.deps.clock.now())) === 'ip_conflict')
            throw ipConflict();
          return current;
        },
      );
    } catch (error) {
      if (error instanceof DdnsAddressUnchanged) return { ip, changed: false };
      throw error;
    }
    return { ip, changed: true };
  }

  /** 422 naming `ip` unless `ip` is a public unicast address (or a documentation one where allowed). */
  private assertLinkable(ip: string, subject: string): void {
    const range = this.deps.ranges.rangeOf(ip);
    if (range === 'unicast' || (range === 'documentation' && this.deps.policy.documentationRanges)) return;
    throw validationFailed([
      {
        field: 'ip',
        message: `${subject} in ${RANGE_NAMES[range] ?? `a reserved range (${range})`}; only public unicast addresses are linked`,
      },
    ]);
  }

  private assertUnderCaps(counts: { profile: number; organisation: number }): void {
    const { perProfile, perAccount } = this.deps.policy;
    if (counts.profile < perProfile && counts.organisation < perAccount) return;
    const which =
      counts.profile >= perProfile
        ? `this profile has ${counts.profile} (at most ${perProfile} per profile)`
        : `this account has ${counts.organisation} over its profiles (at most ${perAccount} per account)`;
    throw new DomainError('too_many_linked_ips', `No more linked IPs: ${which}. Remove one first.`);
  }

  /** Deletes the organisation's address claims left unproven for 24 hours, so none is listed as pending. */
  private async dropExpiredClaims(orgId: string): Promise<void> {
    const cutoff = pendingCutoff(this.deps.clock.now());
    await this.deps.uow.run((tx) => tx.linkedIps.deletePending(orgId, cutoff));
  }

  private lookupOf(linkId: string, generation: number): string {
    return ddnsLookupOf(this.deps.keyedHash, linkId, generation);
  }

  private urlOf(linkId: string, generation: number): string {
    const token = ddnsTokenOf(this.deps.keyedHash, linkId, generation);
    return `${this.deps.baseUrl.replace(/\/+$/, '')}/v1/ddns/${token}`;
  }
}
