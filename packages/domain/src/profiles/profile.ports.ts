import type { AuditScope } from '../audit/audit.ports.js';
import type { OutboxMessage, OutboxScope } from '../outbox/outbox.ports.js';
import type { KeysetPage } from '../pagination/keyset.js';
import type { DocumentDevicePolicy } from '../policies/device-policy.schemas.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { WebhookEventScope } from '../webhooks/webhook.ports.js';
import type { ProfileRecord } from './profile.records.js';

/**
 * Profile reads, always within one organisation: every lookup takes the caller's organisation, so another
 * organisation's profile is simply not found (spec 1.9).
 */
export interface ProfileReadRepository {
  /** The organisation's profile; with `forUpdate`, locked until the transaction ends (writers serialise). */
  find(orgId: string, id: string, options?: { forUpdate?: boolean }): Promise<ProfileRecord | null>;
  /** The organisation's profiles, newest first, after the keyset position. */
  list(orgId: string, page: KeysetPage): Promise<ProfileRecord[]>;
}

/** The profile use cases' writes of one profile row. */
export interface ProfileWriteRepository {
  /** Inserts a new profile; false when the id is taken (the caller draws another). */
  insert(profile: ProfileRecord): Promise<boolean>;
  /** Writes every field of a profile found with `forUpdate` in this transaction. */
  save(profile: ProfileRecord): Promise<void>;
  delete(orgId: string, id: string): Promise<boolean>;
}

/** What account deletion does to every profile of an organisation at once (spec 3). */
export interface ProfileTombstoneRepository {
  /**
   * Marks every live profile of the organisation tombstoned (account deletion pending), bumping each version
   * by one (the tombstone's version), and returns them; a tombstoned profile is kept for restoring but is found
   * by no other method.
   */
  tombstoneAll(orgId: string, at: Date): Promise<ProfileRecord[]>;
  /** Clears the tombstones of the organisation's profiles, bumping each version by one; returns them. */
  restoreAll(orgId: string, at: Date): Promise<ProfileRecord[]>;
  /** Deletes every profile of the organisation, tombstoned or not (account erasure); returns their ids. */
  eraseAll(orgId: string): Promise<string[]>;
}

/** Profiles inside a transaction, every use together: what the storages implement. */
export interface ProfileRepository
  extends ProfileReadRepository,
    ProfileWriteRepository,
    ProfileTombstoneRepository {}

/** Profile reads outside a transaction. */
export const ProfileStore = Symbol.for('svc.ProfileStore');
export type ProfileStore = ProfileReadRepository;

/**
 * The addresses linked to a profile, as its edge document carries them, in ascending text order (the linked
 * IPs' repository offers it): what the profiles need of that context, owned here so it does not import it.
 */
interface ProfileLinkedAddresses {
  addresses(profileId: string): Promise<string[]>;
}

/** How many nodes are enrolled on a profile (the nodes' repository offers it): a profile with nodes stays. */
interface ProfileEnrolledNodes {
  countEnrolled(profileId: string): Promise<number>;
}

/**
 * The profile's devices that override something, by id, as its documents carry them (the devices' repository
 * offers it; consumer-owned so the profiles need nothing else of the devices).
 */
interface ProfileDevicePolicies {
  documentPolicies(profileId: string): Promise<Record<string, DocumentDevicePolicy>>;
}

/** What publishing a profile's edge document uses of a transaction ({@link ProfileService.publish}). */
export interface ProfilePublishScope extends OutboxScope {
  linkedIps: ProfileLinkedAddresses;
  /** The devices that override something, which the documents carry (issue 38). */
  devices: ProfileDevicePolicies;
}

/** What a versioned write of a profile under its row lock uses of a transaction ({@link ProfileWriter}). */
export interface ProfileWriteScope extends ProfilePublishScope, WebhookEventScope {
  profiles: ProfileReadRepository & ProfileWriteRepository;
}

/** What deleting a profile uses of a transaction: the row, the tombstone's publication, the audit entry. */
interface ProfileDeleteScope extends OutboxScope, AuditScope, WebhookEventScope {
  profiles: ProfileReadRepository & ProfileWriteRepository;
  nodes: ProfileEnrolledNodes;
}

/** What the profile use cases ({@link ProfileService}) use of a transaction. */
export type ProfileServiceScope = ProfileWriteScope & ProfileDeleteScope;

/**
 * A change to a stored profile, applied under its row lock inside the write's transaction: it returns the
 * profile's new fields and may write the profile's other tables (linked IPs, …) through `tx`, the scope of
 * the caller's transaction.
 */
export type ProfileChange<Scope> = (
  current: ProfileRecord,
  tx: Scope,
) => Omit<ProfileRecord, 'version' | 'updatedAt'> | Promise<Omit<ProfileRecord, 'version' | 'updatedAt'>>;

/**
 * A versioned write of a profile (spec 4.2): what contexts that keep parts of the profile's edge document
 * (linked IPs) need of the profiles, so that every change to such a part bumps the profile's version and
 * republishes its document.
 */
export interface ProfileWriter {
  /**
   * Applies `change` under the profile's row lock as one versioned write: checks If-Match and suspension,
   * bumps the version by one, saves and publishes, all in one transaction of `uow`, the caller's, whose scope
   * offers what the write needs and what `change` needs; 404 when the organisation has no such profile.
   */
  write<Scope extends ProfileWriteScope>(
    uow: ScopedUnitOfWork<Scope>,
    orgId: string,
    id: string,
    expectedVersion: number | undefined,
    change: ProfileChange<Scope>,
  ): Promise<ProfileRecord>;
}

/**
 * A profile as a writer reads it before committing, with its linked addresses (the part of its edge document
 * kept outside its row) read in the same statement: every change to the links is a versioned write of the
 * profile, so a commit at the version read publishes addresses that are still current.
 */
export interface ProfileSnapshot {
  record: ProfileRecord;
  /** The addresses linked to the profile (spec 1.5), in ascending text order, empty DDNS slots left out. */
  linkedIps: readonly string[];
  /** The devices that override something (issue 38), by id, as documents carry them. */
  devices: Readonly<Record<string, DocumentDevicePolicy>>;
}

/**
 * A profile write in one atomic step, without a lock held across round trips: a writer reads the profile,
 * builds its next version and publication, and commits them only if nobody wrote the profile meanwhile.
 */
export const ProfileCommitter = Symbol.for('svc.ProfileCommitter');
export interface ProfileCommitter {
  /**
   * The organisation's live profile and its linked addresses, as a writer reads them before
   * committing: in one read, at once, never queued behind other requests' reads.
   */
  current(orgId: string, id: string): Promise<ProfileSnapshot | null>;
  /**
   * Stores every field of `next` but `suspended` and enqueues `publication` to the outbox, together and
   * atomically, only if the stored profile is still live at version `next.version - 1`; otherwise writes
   * nothing and answers false.
   */
  commitIfUnchanged(next: ProfileRecord, publication: OutboxMessage): Promise<boolean>;
}
