import type { KeysetPage } from '../pagination/keyset.js';
import type { ProfileWriteScope } from '../profiles/profile.ports.js';

/**
 * Whether a link's address is proven (security.md, Linked IPv4 addresses): `active` once a request from the
 * address linked it or called its DDNS update URL, and only then published to the edge and used to attribute
 * queries; `pending` while the address is only claimed (or a DDNS slot is still empty).
 */
export type LinkedIpState = 'pending' | 'active';

/** A linked IPv4 address as stored. The DDNS token itself is never stored, only a keyed hash of it. */
export interface LinkedIpRecord {
  id: string;
  /** The owning profile's organisation, so that every lookup is bound to the caller's (spec 1.9). */
  orgId: string;
  profileId: string;
  /** Null while a DDNS slot is empty. Unique among active links of every profile of every organisation. */
  ip: string | null;
  /** Pending links are never published and never block anyone's proven claim of the same address. */
  state: LinkedIpState;
  /** Created as a DDNS slot. */
  ddns: boolean;
  /** Generation of the DDNS token, derived from the server key; rotating increments it. */
  ddnsGeneration: number;
  /** Keyed hash of the current DDNS token, unique: how a presented token finds its link. */
  ddnsLookup: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A write that may collide with an address actively linked elsewhere (the store's uniqueness decides). */
export type LinkedIpWriteResult = 'written' | 'ip_conflict';

/**
 * Linked IPs inside a transaction. Callers hold the owning profile's row lock, so writes to one profile's
 * links serialise; the uniqueness of an address across profiles is the store's, race-free.
 */
export interface LinkedIpRepository {
  /** Inserts a link; `ip_conflict` when it is active and its address is actively linked anywhere already. */
  insert(link: LinkedIpRecord): Promise<LinkedIpWriteResult>;
  /** The link of the organisation's profile. */
  find(orgId: string, profileId: string, id: string): Promise<LinkedIpRecord | null>;
  /** The link whose current DDNS token hashes to `ddnsLookup`. */
  findByDdnsLookup(ddnsLookup: string): Promise<LinkedIpRecord | null>;
  /**
   * Sets a link's address as proven (state `active`); `ip_conflict` when that address is actively linked
   * anywhere already.
   */
  setIp(id: string, ip: string, at: Date): Promise<LinkedIpWriteResult>;
  /** Replaces a link's DDNS token (the previous one stops matching at once). */
  setDdnsToken(id: string, generation: number, ddnsLookup: string): Promise<void>;
  delete(orgId: string, profileId: string, id: string): Promise<boolean>;
  /** The profile's links, newest first, after the keyset position. */
  list(orgId: string, profileId: string, page: KeysetPage): Promise<LinkedIpRecord[]>;
  /** Every active address linked to the profile (pending links left out), in ascending text order. */
  addresses(profileId: string): Promise<string[]>;
  /** Every link of the organisation's profiles, in no particular order. */
  listOfOrganisation(orgId: string): Promise<LinkedIpRecord[]>;
  /**
   * Deletes the organisation's pending links that claim an address (empty DDNS slots stay), those created
   * before `createdBefore` only when given; answers how many.
   */
  deletePending(orgId: string, createdBefore?: Date): Promise<number>;
  /**
   * How many links (DDNS slots included) the profile and its whole organisation have. Serialised per
   * organisation until the transaction ends, so that concurrent links on several of its profiles cannot all
   * pass a cap that only one of them fits under.
   */
  countForCaps(orgId: string, profileId: string): Promise<{ profile: number; organisation: number }>;
}

/**
 * What the linked-IP use cases use of a transaction: each change to a profile's links is a versioned write
 * of the profile (its lock, version and publication), made in the same transaction as the change.
 */
export interface LinkedIpScope extends ProfileWriteScope {
  linkedIps: LinkedIpRepository;
}

/**
 * The special-purpose range an IPv4 address belongs to, by the IANA registries, classified with a maintained
 * library in the adapter.
 */
export const IpRangeClassifier = Symbol.for('svc.IpRangeClassifier');
export interface IpRangeClassifier {
  /**
   * `unicast` for a public address, `documentation` for RFC 5737's example networks, else the range's name:
   * `private`, `loopback`, `linkLocal`, `carrierGradeNat`, `multicast`, `broadcast`, `unspecified`, `reserved`.
   */
  rangeOf(ipv4: string): string;
}

/** Linked IP reads outside a transaction. */
export const LinkedIpStore = Symbol.for('svc.LinkedIpStore');
export type LinkedIpStore = Pick<LinkedIpRepository, 'find' | 'findByDdnsLookup' | 'list'>;
